"""The tidy CSV: one row per measured value (schema in README.md, "The results CSV")."""
import csv
import io
import math
from dataclasses import dataclass, fields
from pathlib import Path

from . import numbers
from .atomic import atomic_write
from .parameters import Params

STATUSES = ("ok", "timeout", "crashed", "rejected", "guarded", "error")


@dataclass
class Row:
    run_id: str
    family: str
    benchmark: str
    params: Params
    repetition: int
    metric: str
    value: float | None
    unit: str
    status: str
    detail: str

    def __post_init__(self):
        if not isinstance(self.params, Params):  # a string here is structure travelling as text
            raise TypeError(f"Row.params is {type(self.params).__name__}, not Params")


COLUMNS = [f.name for f in fields(Row)]


def _format_value(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def to_csv(rows: list[Row]) -> str:
    return csv_records([COLUMNS]) + csv_lines(rows)


def csv_lines(rows: list[Row]) -> str:
    """The rows' CSV records without the header: what a run appends after each cell."""
    # getattr, not dataclasses.astuple: astuple deep-copies, and runs of a thousand cells spent
    # minutes here.
    return csv_records([_format_value(row.value) if c == "value" else str(getattr(row, c)) for c in COLUMNS]
                       for row in rows)


def csv_records(records) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(records)
    return out.getvalue()


def write_csv(path: Path, rows: list[Row]) -> None:
    atomic_write(path, to_csv(rows))


def validate_row(row: Row) -> list[str]:
    """What is wrong with a row against the schema; empty when it is right."""
    problems = []
    if row.status not in STATUSES:
        problems.append(f"status {row.status!r} is not one of {', '.join(STATUSES)}")
    if row.status == "ok" and (row.value is None or not math.isfinite(row.value)):
        problems.append("an ok row needs a finite value")
    if row.status != "ok" and row.value is not None:
        problems.append("a failed row has no value")
    if row.status != "ok" and not row.detail:
        problems.append("a failed row says why in detail")
    if row.repetition < 0:
        problems.append("repetition is negative")
    return problems


def _row(fields: list[str]) -> Row:
    """One CSV record as a Row; ValueError says what is wrong with it."""
    if len(fields) != len(COLUMNS):
        raise ValueError(f"{len(fields)} fields instead of {len(COLUMNS)} (a cut or damaged line)")
    r = dict(zip(COLUMNS, fields))
    repetition = numbers.integer(r["repetition"])
    if repetition is None:
        raise ValueError(f"repetition {r['repetition']!r} is not an integer")
    value = None if r["value"] == "" else numbers.decimal(r["value"])
    if r["value"] != "" and value is None:
        raise ValueError(f"value {r['value']!r} is not a finite number")
    if r["status"] not in STATUSES:
        raise ValueError(f"status {r['status']!r} is not one of {', '.join(STATUSES)}")
    return Row(r["run_id"], r["family"], r["benchmark"], Params.parse(r["params"]), repetition, r["metric"], value, r["unit"],
               r["status"], r["detail"])


def read_csv(path: Path) -> list[Row]:
    """Every row of a results CSV. ValueError "line N: ..." when the file is not one, is cut short or
    damaged (UnicodeDecodeError, a ValueError too, when it is not UTF-8)."""
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    if text and not text.endswith("\n"):  # we write whole lines only: the file was cut short
        raise ValueError(f"line {text.count(chr(10)) + 1}: the file ends in the middle of a line (cut short)")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header != COLUMNS:
            raise ValueError(f"line 1: columns {header} are not {COLUMNS}")
        rows = []
        for fields in reader:
            try:
                rows.append(_row(fields))
            except ValueError as e:
                raise ValueError(f"line {reader.line_num}: {e}") from None
        return rows
    except csv.Error as e:
        raise ValueError(f"line {reader.line_num}: {e}") from None
