"""The values that say where a cell ran: `stallbench`, the C++ side, and VALUE@LINE for a parameter
value naming Node, one per Node line the run chose (`node@26`, `node-linear@system`; the bench
harness expands them: benches/harness/node_lines.h, runtime_param.h). The one place that builds,
splits and orders them, so every report and command lists runtimes alike: stallbench first, then
each Node value with its numbered lines oldest first and other lines (`system`) after them."""
from collections.abc import Iterable

from .numbers import natural_order

STALLBENCH = "stallbench"
NODE = "node"
_AT = "@"


def of_line(line: str, base: str = NODE) -> str:
    """('26') -> node@26; ('system', 'node-linear') -> node-linear@system."""
    return f"{base}{_AT}{line}"


def split(value: str) -> tuple[str, str]:
    """node@26 -> ('node', '26'); node-linear@system -> ('node-linear', 'system'); a value without a
    line -> (value, ''). The last '@' splits, as the harness splits."""
    base, at, line = value.rpartition(_AT)
    return (base, line) if at else (value, "")


def base(value: str) -> str:
    return split(value)[0]


def line(value: str) -> str:
    return split(value)[1]


def order(value: str) -> tuple:
    """A sort key: stallbench first, then by the value naming Node, then by line (numbers by value)."""
    name, at_line = split(value)
    return (value != STALLBENCH, name, natural_order(at_line))


def runtimes(values: Iterable[str]) -> list[str]:
    """The distinct values, in `order`."""
    return sorted(set(values), key=order)
