"""Mixes as the command line writes them (CLASS:RATE[:SIZE],... or a name from mixes.json) and as the
bench's `mix` parameter carries them (CLASS@RATE[@SIZE]+...: ',' and ':' separate other things in a
parameter). The bench binary validates a mix; this module only respells it and reads the names."""
import json
from functools import cache

from .. import paths

MIXES_JSON = paths.ROOT / "workloads" / "pool_sweep" / "mixes.json"


@cache
def named() -> dict[str, dict]:
    return {m["name"]: m for m in json.loads(MIXES_JSON.read_text())["mixes"]}


def as_param(text: str) -> str:
    return text.replace(":", "@").replace(",", "+")


def as_command_line(text: str) -> str:
    return text.replace("@", ":").replace("+", ",")


def _items(text: str) -> list[list[str]]:
    spelled = as_command_line(named()[text]["mix"] if text in named() else text)
    return [item.split(":") for item in spelled.split(",")]


def classes_of(text: str) -> list[str]:
    """The classes of a mix the bench has accepted, in order."""
    return [fields[0] for fields in _items(text)]


def in_flight_of(text: str) -> dict[str, int]:
    """The classes kept in flight (RATE written xN) and their N."""
    return {f[0]: int(f[1][1:]) for f in _items(text) if len(f) > 1 and f[1].startswith("x")}


def help_text() -> str:
    return "; ".join(f"{name} ({m['mix']})" for name, m in named().items())
