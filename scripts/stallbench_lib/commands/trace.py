"""stallbench trace: the order in which a scenario's callbacks run on stallbench's runtime and,
with --node, under Node from JavaScript generated from the same scenario, side by side.

Scenarios are JSON files (format: workloads/loop/scenario.h, docs/starvation.md); with no file
every shipped one (workloads/loop/scenarios/) runs. The runtime's side is the C++ tool
build/<preset>/tools/stallbench_trace, which also checks the files (bad input: one line, exit 2)
and writes the JavaScript. Exit 0 when every order is one the scenario expects and Node agrees,
1 otherwise."""
import json
import subprocess
import tempfile
import textwrap
from collections import Counter
from pathlib import Path

from .. import build, children, node as nodejs, numbers, paths
from ..browser import trace as browser_trace
from ..errors import UsageError

NAME = "trace"
ORDER = 3
HELP = ("print the order a scenario's callbacks run in on stallbench's runtime (every shipped scenario "
        "when no file is given); --node: beside Node's, from the same scenario")
SCENARIOS = paths.ROOT / "workloads" / "loop" / "scenarios"
TOOL_TIMEOUT_S = 900
# A scenario's callbacks and their logs need a few MB; a runaway one (timers that multiply) grew by
# ~75 MB/s, and would take three quarters of the machine's memory before the default cap stopped it.
TOOL_MEMORY_BYTES = 1 << 30
NODE_TIMEOUT_S = 60
WIDTH = 100


def add_arguments(p):
    p.add_argument("files", nargs="*", type=Path, metavar="SCENARIO.json",
                   help=f"scenario files (default: every file in {SCENARIOS.relative_to(paths.ROOT)}/)")
    p.add_argument("--runs", type=numbers.integer_option, metavar="N",
                   help="runs per scenario, 1-1000 (default: the scenario's own `runs`: 1, more for races); "
                        "distinct orders are printed with their counts")
    p.add_argument("--node", action="store_true",
                   help="also run the scenario as JavaScript under node (when present) and compare")
    p.add_argument("--browser", action="store_true",
                   help="run page scenarios in headless Chromium instead (default: every file in "
                        f"{browser_trace.SCENARIOS.relative_to(paths.ROOT)}/; docs/browser.md)")
    p.add_argument("--no-build", action="store_true", help="use the existing build")


def _tool(build_dir: Path) -> Path:
    tool = build_dir / "tools" / "stallbench_trace"
    if not tool.exists():
        raise UsageError(f"{tool} is not built: run without --no-build")
    return tool


def _call(tool: Path, *args: str) -> str:
    """Runs the tool; its one-line complaint about bad input becomes ours (exit 2)."""
    try:
        # Its complaints quote the file's bytes, which need not be UTF-8.
        out = children.run([str(tool), *args], encoding="utf-8", errors="backslashreplace", timeout_s=TOOL_TIMEOUT_S,
                           memory_bytes=TOOL_MEMORY_BYTES)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"stallbench: trace: the scenarios did not finish within {TOOL_TIMEOUT_S} s")
    if out.memory_kill:
        raise SystemExit(f"stallbench: trace: stallbench_trace was {out.memory_kill}")
    said = out.stderr.strip().splitlines()
    if out.returncode == 2:
        raise UsageError(said[-1] if said else "stallbench_trace refused its input")
    if out.returncode != 0:
        raise SystemExit(f"stallbench: trace: {said[-1] if said else f'stallbench_trace exited with {out.returncode}'}")
    return out.stdout


def _node_orders(tool: Path, node: nodejs.Node, scenario: dict, workdir: Path) -> tuple[list[dict], str]:
    """Runs the generated JavaScript `runs` times: (distinct orders with counts, error or "")."""
    script = workdir / (Path(scenario["file"]).stem + (".mjs" if scenario["module"] == "esm" else ".cjs"))
    script.write_text(_call(tool, "javascript", scenario["file"]))
    counts: Counter = Counter()
    for _ in range(scenario["runs"]):
        order, error = nodejs.run_json(node, str(script), NODE_TIMEOUT_S)
        if order is None:
            return [], error
        counts[tuple(order)] += 1
    return [{"order": list(o), "count": c} for o, c in counts.items()], ""


def _as_expected(scenario: dict) -> bool | None:
    if not scenario["expect"]:
        return None
    allowed = {tuple(e) for e in scenario["expect"]}
    return all(tuple(o["order"]) in allowed for o in scenario["orders"])


def _agreement(scenario: dict, node_orders: list[dict]) -> tuple[bool, str]:
    ours = {tuple(o["order"]) for o in scenario["orders"]}
    theirs = {tuple(o["order"]) for o in node_orders}
    if ours == theirs:
        return True, "agree"
    allowed = {tuple(e) for e in scenario["expect"]}
    if len(allowed) > 1 and ours | theirs <= allowed:
        return True, ("agree: a race, and every order either side gave is one the scenario allows; "
                      "how often each wins differs (see its analysis)")
    return False, "DISAGREE"


def _print_distinct(who: str, orders: list[dict], runs: int) -> None:
    n = len(orders)
    print(f"   {who}: {n} distinct order{'s' if n != 1 else ''} in {runs} run{'s' if runs != 1 else ''}")
    for o in sorted(orders, key=lambda o: -o["count"]):
        print(f"     {o['count']:>4}×  " + " → ".join(o["order"]))


def _print_columns(ours: list[str], theirs: list[str] | None, left: str, right: str) -> None:
    width = max([len(left)] + [len(x) for x in ours]) + 2
    if theirs is None:
        for i, label in enumerate(ours, 1):
            print(f"   {i:>2}  {label}")
        return
    print(f"       {left:<{width}}{right}")
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else ""
        b = theirs[i] if i < len(theirs) else ""
        mark = " " if a == b else "≠"
        print(f"   {i + 1:>2} {mark} {a:<{width}}{b}")


def _print_scenario(s: dict, node_orders: list[dict] | None, node_error: str, left: str, right: str) -> bool:
    """Prints one scenario; returns whether it is as expected and (with Node) agrees."""
    runs = s["runs"]
    print(f"\n── {s['name']} ({s['module']}, {runs} run{'s' if runs != 1 else ''})  {Path(s['file']).name}")
    if s["seed"]:
        print(textwrap.fill(f"seed: {s['seed']}", WIDTH, initial_indent="   ", subsequent_indent="         "))
    if s["analysis"]:
        print(textwrap.fill(s["analysis"], WIDTH, initial_indent="   ", subsequent_indent="   "))
    single = len(s["orders"]) == 1 and (node_orders is None or len(node_orders) <= 1)
    if single:
        theirs = node_orders[0]["order"] if node_orders else None
        if runs > 1:
            print(f"   every run of {runs} gave the same order" + (" on both" if theirs is not None else ""))
        _print_columns(s["orders"][0]["order"], theirs, left, right)
    else:
        _print_distinct(left, s["orders"], runs)
        if node_orders:
            _print_distinct(right, node_orders, runs)
    ok = True
    expected = _as_expected(s)
    if expected is True:
        print("   order: as expected" + (" (one of the allowed orders)" if len(s["expect"]) > 1 else ""))
    elif expected is False:
        ok = False
        print("   order: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))
    if node_orders is not None or node_error:
        if node_error:
            ok = False
            print(f"   node: failed: {node_error}")
        else:
            agree, text = _agreement(s, node_orders)
            ok = ok and agree
            print(f"   node: {text}")
    return ok


def run(args) -> int:
    if args.browser:
        return browser_trace.run(args)
    if args.runs is not None and not 1 <= args.runs <= 1000:
        raise UsageError(f"--runs {args.runs} is out of range: valid values are 1-1000")
    files = args.files or sorted(SCENARIOS.glob("*.json"))
    if not files:
        raise UsageError(f"no scenario files given and none in {SCENARIOS}")
    for f in files:
        if not f.is_file():
            raise UsageError(f"{f}: no such file (a scenario is a JSON file; shipped ones are in {SCENARIOS})")
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    tool = _tool(build_dir)
    runs = ["--runs", str(args.runs)] if args.runs is not None else []
    result = json.loads(_call(tool, "run", *runs, *map(str, files)))

    node, why_not = nodejs.find() if args.node else (None, "")
    left = f"stallbench (libuv {result['libuv']})"
    print(f"runtime: stallbench's model on libuv {result['libuv']}: {result['timer_phase']}")
    right = ""
    if node:
        right = f"node {node.version} (libuv {node.libuv})"
        print(f"node:    {node.version} on libuv {node.libuv}: {_call(tool, 'timer-phase', node.libuv).strip()}")
    elif args.node:
        print(f"note: {why_not}; showing stallbench's orders only")

    failures = 0
    with tempfile.TemporaryDirectory(prefix="stallbench-trace-") as tmp:
        for s in result["scenarios"]:
            node_orders, node_error = (None, "")
            if node:
                node_orders, node_error = _node_orders(tool, node, s, Path(tmp))
            failures += not _print_scenario(s, node_orders, node_error, left, right)
    total = len(result["scenarios"])
    print(f"\n{total} scenario{'s' if total != 1 else ''}: {total - failures} as expected"
          + (" and agreeing with node" if node else "") + (f", {failures} NOT" if failures else ""))
    return 1 if failures else 0
