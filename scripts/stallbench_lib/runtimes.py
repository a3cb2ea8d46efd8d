"""Where a cell ran: `stallbench`, the C++ side, or a parameter value naming Node (`runtime=node`,
`engine=node-linear`) with the Node line in the cell's own parameter `node_line` (the bench harness
adds it: benches/harness/protocol.h, node_lines.h). The one place that reads them, builds their
one-word label (`node@26`, `node-linear@system`: how reports show and group a runtime, and how a
person names one in `--set runtime=node@26`), splits that label, and orders runtimes alike:
stallbench first, then each Node value with its numbered lines oldest first and other lines
(`system`) after them."""
from collections.abc import Iterable, Mapping

from .numbers import natural_order

STALLBENCH = "stallbench"
NODE = "node"
NODE_LINE = "node_line"  # the harness's kNodeLineParam, its describe's reserved.node_line_param
_AT = "@"  # the harness's kNodeLineMark, its describe's reserved.node_line


def of_line(line: str, base: str = NODE) -> str:
    """('26') -> node@26; ('system', 'node-linear') -> node-linear@system."""
    return f"{base}{_AT}{line}"


def label(params: Mapping[str, str], key: str = "runtime") -> str:
    """The runtime a row's `key` names, in one word: runtime=node;node_line=26 -> node@26; a value
    without a Node line (stallbench, re2) as it is."""
    line = params.get(NODE_LINE)
    return of_line(line, params[key]) if line else params[key]


def params_of(value: str, key: str = "runtime") -> dict[str, str]:
    """A one-word label as a row's parameters: ('node@26', 'engine') -> {'engine': 'node',
    'node_line': '26'}; ('re2', 'engine') -> {'engine': 're2'}."""
    name, at_line = split(value)
    return {key: name, NODE_LINE: at_line} if at_line else {key: value}


def node_line(params: Mapping[str, str]) -> str:
    """The Node line a row ran on ('26', 'system'); '' for a row that ran no Node."""
    return params.get(NODE_LINE, "")


def split(value: str) -> tuple[str, str]:
    """The one parser of the one-word label: node@26 -> ('node', '26'); node-linear@system ->
    ('node-linear', 'system'); a value without a line -> (value, ''). The last '@' splits, as the
    harness splits."""
    base, at, line = value.rpartition(_AT)
    return (base, line) if at else (value, "")


def base(value: str) -> str:
    return split(value)[0]


def line(value: str) -> str:
    return split(value)[1]


def order(value: str) -> tuple:
    """A sort key of labels: stallbench first, then by the value naming Node, then by line (numbers by value)."""
    name, at_line = split(value)
    return (value != STALLBENCH, name, natural_order(at_line))


def runtimes(values: Iterable[str]) -> list[str]:
    """The distinct labels, in `order`."""
    return sorted(set(values), key=order)
