"""A cell's parameters as data: what a row carries in its params column. The text form,
'key=value;key=value' with keys sorted, is made only when a CSV line is written (str) and read only
by Params.parse, the one parser of that column.

Rows written before protocol 5 spelled a Node cell's line inside its value (`runtime=node@26`,
`engine=node-linear@26`); since then the line is a parameter of its own (`node_line=26;runtime=node`).
Params.parse reads the old spelling as the new, so a history, a baseline or an older revision's
results compare with today's rows."""
import re
from collections.abc import Iterable, Iterator, Mapping

from . import runtimes

# The parameters whose values named Node before protocol 5, and the form their values took then.
_BEFORE_NODE_LINE = ("runtime", "engine")
_ONE_WORD = re.compile(r"node[a-z-]*@[A-Za-z0-9._-]+")


class Params(Mapping[str, str]):
    """An immutable mapping of parameter names to values. It is hashable and orders by its text, so
    rows can be grouped and sorted by their parameters as they were when the column was a string."""
    __slots__ = ("_items", "_text")

    def __init__(self, values: Mapping[str, str | int] | Iterable[tuple[str, str | int]] = ()):
        items = dict(values)
        for key, value in items.items():
            if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise TypeError(f"parameter {key!r}={value!r}: a name is a string, a value a string or a number")
            items[key] = value = str(value)
            if not key or "=" in key or ";" in key:
                raise ValueError(f"parameter name {key!r} is empty or holds '=' or ';'")
            if ";" in value:
                raise ValueError(f"parameter {key}: value {value!r} holds ';', which separates parameters")
        self._items = dict(sorted(items.items()))
        self._text = ";".join(f"{k}={v}" for k, v in self._items.items())

    @classmethod
    def parse(cls, text: str) -> "Params":
        """The params column's text as Params; ValueError names what is wrong (an item without '=', a
        name twice, names out of order: a column we write is always in the one spelling)."""
        pairs = []
        for item in text.split(";") if text else []:
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"params {text!r}: {item!r} is not name=value")
            pairs.append((key, value))
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError(f"params {text!r} name a parameter twice")
        as_written = cls(pairs)
        if as_written._text != text:
            raise ValueError(f"params {text!r} are not in canonical form ({as_written._text!r}: names sorted)")
        return cls(_node_line_apart(pairs))

    def with_values(self, **values: str) -> "Params":
        """These parameters with some added or replaced."""
        return Params({**self._items, **values})

    def __getitem__(self, key: str) -> str:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._text)

    def __eq__(self, other: object) -> bool:
        # Only Params equal Params: a comparison with the text would hide a string that slipped through.
        return isinstance(other, Params) and other._text == self._text

    def __lt__(self, other: "Params") -> bool:
        return self._text < other._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Params({self._text!r})"


def _node_line_apart(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A row written before protocol 5 as today's: runtime=node@26 -> runtime=node;node_line=26."""
    if any(k == runtimes.NODE_LINE for k, _ in pairs):
        return pairs
    out = []
    for key, value in pairs:
        if key in _BEFORE_NODE_LINE and _ONE_WORD.fullmatch(value):
            value, line = runtimes.split(value)
            out.append((runtimes.NODE_LINE, line))
        out.append((key, value))
    return out
