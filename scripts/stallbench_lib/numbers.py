"""One spelling of a number wherever stallbench reads one (options, --set/--targets/--lengths items,
files): ASCII digits, an optional sign, for decimals an optional fraction and exponent. Python's int()
and float() also take Arabic-Indic or full-width digits, underscores, surrounding blanks, "nan" and
"inf"; none of these is a number here, so a value means the same to the orchestrator and to the C++
side that reads it again."""
import argparse
import math
import re

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def integer(text: str) -> int | None:
    """The integer `text` spells, or None."""
    return int(text) if _INTEGER.fullmatch(text) else None


def natural_order(text: str) -> tuple:
    """A sort key: integers by value ("2" before "16"), then other words alphabetically."""
    value = integer(text)
    return (value is None, value or 0, text)


def decimal(text: str) -> float | None:
    """The finite number `text` spells, or None."""
    if not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def integer_option(text: str) -> int:
    """argparse type= for an integer option: a malformed one is argparse's one-line exit 2."""
    value = integer(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (ASCII digits 0-9)")
    return value


def decimal_option(text: str) -> float:
    value = decimal(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (ASCII digits, e.g. 0.05 or 1e-3)")
    return value
