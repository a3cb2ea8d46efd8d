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


def classes_of(text: str) -> list[str]:
    """The classes of a mix the bench has accepted, in order."""
    spelled = as_command_line(named()[text]["mix"] if text in named() else text)
    return [item.split(":")[0] for item in spelled.split(",")]


def help_text() -> str:
    return "; ".join(f"{name} ({m['mix']})" for name, m in named().items())
