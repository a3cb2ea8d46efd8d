"""The one way a table is written, for report sections and the tracking outputs alike: columns
declared with their header, unit and alignment; rows as lists of cell values in column order.
Sections never join `|` themselves (tests/python/test_tables.py checks that), so an escape, an
empty table or an alignment is decided here once."""
from dataclasses import dataclass
from typing import Iterable, Sequence

ALIGNMENTS = {"left": "---", "right": "---:", "center": ":---:"}
EMPTY = "–"


@dataclass(frozen=True)
class Column:
    header: str
    unit: str = ""
    align: str = "left"

    def __post_init__(self):
        if self.align not in ALIGNMENTS:
            raise ValueError(f"column {self.header!r}: align {self.align!r}, expected one of {', '.join(ALIGNMENTS)}")

    @property
    def title(self) -> str:
        return f"{self.header} {self.unit}" if self.unit else self.header


def number(header: str, unit: str = "") -> Column:
    """A column of figures: right-aligned, so digits line up."""
    return Column(header, unit, "right")


def columns(*headers: str | Column) -> list[Column]:
    """Plain headers become left-aligned columns; Column values pass through."""
    return [h if isinstance(h, Column) else Column(h) for h in headers]


def cell(value) -> str:
    """A value as a table shows it: None is "–"; a `|` that is not escaped already would end the cell."""
    if value is None:
        return EMPTY
    text = str(value)
    out, escaped = [], False
    for ch in text:
        if ch == "|" and not escaped:
            out.append("\\")
        escaped = ch == "\\" and not escaped
        out.append(ch)
    return "".join(out)


def markdown(cols: Sequence[Column | str], rows: Iterable[Sequence], empty: str | None = None) -> str:
    """A GitHub-flavoured Markdown table, ending in a newline. `empty`: the row shown when there
    are no rows ("–" then the text), so a table with nothing to say still says why; without it an
    empty table is the header alone."""
    return "\n".join(lines(cols, rows, empty)) + "\n"


def lines(cols: Sequence[Column | str], rows: Iterable[Sequence], empty: str | None = None) -> list[str]:
    """The same table as a list of lines, for a page built as one."""
    cols = columns(*cols)
    out = [_line(c.title for c in cols), "|" + "|".join(ALIGNMENTS[c.align] for c in cols) + "|"]
    for row in rows:
        if len(row) != len(cols):
            raise ValueError(f"a row of {len(row)} cells under {len(cols)} columns ({', '.join(c.title for c in cols)})")
        out.append(_line(cell(v) for v in row))
    if len(out) == 2 and empty is not None:
        out.append(_line([EMPTY, empty, *[""] * (len(cols) - 2)]))
    return out


def text(cols: Sequence[Column | str], rows: Iterable[Sequence]) -> str:
    """The same table for a terminal: columns padded to their widest cell, figures right-aligned."""
    cols = columns(*cols)
    table = [[c.title for c in cols]] + [["–" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(cols))]
    pad = [str.rjust if c.align == "right" else str.ljust for c in cols]
    return "\n".join("  ".join(p(v, w) for p, v, w in zip(pad, r, widths)).rstrip() for r in table) + "\n"


def _line(cells) -> str:
    return "| " + " | ".join(cells) + " |"
