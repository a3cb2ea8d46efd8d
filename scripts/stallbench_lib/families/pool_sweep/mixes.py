"""A mix as data: its items (class, rate, optional size) and, for a named one, its name. Read by
Mix.parse from either spelling, the command line's (CLASS:RATE[:SIZE],... or a name from mixes.json)
or the bench's `mix` parameter's (CLASS@RATE[@SIZE]+...: ',' and ':' separate other things in a
parameter), and written back in either. The bench binary validates a mix; this module only reads
the structure and spells it."""
import json
from dataclasses import dataclass
from functools import cache

from ... import paths

MIXES_JSON = paths.ROOT / "workloads" / "pool_sweep" / "mixes.json"
_COMMAND_LINE = (",", ":")  # between items, between an item's fields
_PARAM = ("+", "@")


@cache
def named() -> dict[str, dict]:
    return {m["name"]: m for m in json.loads(MIXES_JSON.read_text())["mixes"]}


@dataclass(frozen=True)
class Item:
    job_class: str
    rate: str | None = None  # jobs per second, or xN: N jobs kept in flight
    size: str | None = None

    @property
    def in_flight(self) -> int | None:
        """N when the class is kept N jobs in flight (RATE written xN)."""
        rate = self.rate or ""
        return int(rate[1:]) if rate[:1] == "x" and rate[1:].isdigit() else None

    def spelled(self, field: str) -> str:
        return field.join(f for f in (self.job_class, self.rate, self.size) if f is not None)


@dataclass(frozen=True)
class Mix:
    items: tuple[Item, ...]
    name: str | None = None  # a mix of mixes.json, written by its name in both spellings

    @classmethod
    def parse(cls, text: str) -> "Mix":
        """A name, the command line's spelling or the parameter's (they share no separator).
        ValueError for an item of more than three fields; the bench judges the rest."""
        if text in named():
            return cls(cls.parse(named()[text]["mix"]).items, text)
        between, within = _PARAM if any(sep in text for sep in _PARAM) else _COMMAND_LINE
        items = []
        for item in text.split(between):
            fields = item.split(within)
            if len(fields) > 3:
                raise ValueError(f"mix item {item!r} has {len(fields)} fields: CLASS{within}RATE[{within}SIZE]")
            items.append(Item(*fields))
        return cls(tuple(items))

    def _spelled(self, between: str, within: str) -> str:
        return self.name or between.join(item.spelled(within) for item in self.items)

    def as_param(self) -> str:
        return self._spelled(*_PARAM)

    def as_command_line(self) -> str:
        return self._spelled(*_COMMAND_LINE)

    @property
    def classes(self) -> list[str]:
        return [item.job_class for item in self.items]

    @property
    def in_flight(self) -> dict[str, int]:
        """The classes kept in flight and their N."""
        return {item.job_class: item.in_flight for item in self.items if item.in_flight is not None}


def help_text() -> str:
    return "; ".join(f"{name} ({m['mix']})" for name, m in named().items())
