"""`stallbench trace --browser [NAME|all]`: page scenarios (workloads/browser/scenarios/, format in
scenario.py) run headless in one browser or every installed one (bench_browser's `browsers` table)
by workloads/browser/driver/trace.mjs, each run on a freshly loaded page; the orders are printed as
Node's trace prints them, distinct orders counted for races, and with several browsers a parity
matrix (scenario x browser). A browser that is not installed is one notice line with `all`. Exit 0
when every order is one the scenario expects, 1 otherwise, 2 for bad input (nothing runs)."""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from .. import children, scenario_text
from ..errors import UsageError
from . import scenario as scenarios, setup
from .setup import BROWSER_DIR
from ..documents import json_loads

SCENARIOS = BROWSER_DIR / "scenarios"
RUN_SLACK_MS = 15_000    # a page load and the run's own bookkeeping, beyond what its ops wait for
START_ALLOWANCE_S = 180  # Chromium's start on a loaded machine


def _limit_ms(loaded: list[dict]) -> int:
    return RUN_SLACK_MS + max(scenarios.time_bound_ms(s["program"]) for s in loaded)


def _drive(loaded: list[dict], d: setup.Driving) -> dict:
    limit_ms = _limit_ms(loaded)
    request = {"limit_ms": limit_ms,
               "scenarios": [{"file": s["file"], "program": s["program"], "runs": s["runs"]} for s in loaded]}
    timeout_s = START_ALLOWANCE_S + sum(s["runs"] for s in loaded) * limit_ms / 1e3
    argv = setup.driver_argv(d, "trace.mjs")
    try:
        out = children.run(argv, input=json.dumps(request), text=True, timeout_s=timeout_s, reserves_address_space=True)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"stallbench: trace --browser: {d.label} did not finish within {timeout_s:.0f} s")
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        said = [line for line in out.stderr.splitlines() if line.strip()]
        raise SystemExit(f"stallbench: trace --browser: the {d.label} driver failed (exit {out.returncode})"
                         + (f": {said[-1]}" if said else ""))
    result = json_loads(lines[-1])
    result["node_version"] = d.node_version
    return result


def _print_scenario(s: dict, outcome: dict) -> bool:
    runs = s["runs"]
    scenario_text.print_intro(s, "page")
    if "error" in outcome:
        print(f"   FAILED: {outcome['error']}")
        return False
    counts = Counter(tuple(o) for o in outcome["orders"])
    if len(counts) == 1:
        if runs > 1:
            print(f"   every run of {runs} gave the same order")
        for i, label in enumerate(next(iter(counts)), 1):
            print(f"   {i:>2}  {label}")
    else:
        print(f"   {len(counts)} distinct orders in {runs} runs")
        for order, n in counts.most_common():
            print(f"     {n:>4}×  " + " → ".join(order))
    if not s["expect"]:
        return True
    allowed = {tuple(e) for e in s["expect"]}
    if set(counts) <= allowed:
        print("   order: as expected" + (" (one of the allowed orders)" if len(allowed) > 1 else ""))
        return True
    print("   order: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))
    return False


def _orders(outcome: dict) -> str:
    """One cell of the parity matrix: the order a browser gave, or its distinct orders."""
    if "error" in outcome:
        return "FAILED"
    counts = Counter(tuple(o) for o in outcome["orders"])
    return " | ".join(f"{', '.join(o)}" + (f" ({n}×)" if len(counts) > 1 else "") for o, n in counts.most_common())


def _print_matrix(loaded: list[dict], results: dict[str, dict]) -> None:
    """Scenario x browser: each browser's order(s), and whether the browsers agree."""
    names = list(results)
    print(f"\nparity across browsers ({', '.join(names)}): the orders each gave; "
          "'differs' where the standards leave the engines room")
    for i, s in enumerate(loaded):
        cells = {name: _orders(results[name]["scenarios"][i]) for name in names}
        same = len(set(cells.values())) == 1 and "FAILED" not in cells.values()
        print(f"  {s['name']}: {'same' if same else 'differs'}")
        for name in names:
            print(f"    {name:<9} {cells[name]}")


def run(files: list[Path], runs: int | None, browser: str, build_dir: Path) -> int:
    """Runs the page scenarios in `files` (none: the shipped ones), each `runs` times (None: as
    each scenario says), in `browser` (a declared browser's name, or `all`)."""
    if runs is not None and not 1 <= runs <= 1000:
        raise UsageError(f"--runs {runs} is out of range: valid values are 1-1000")
    files = files or sorted(SCENARIOS.glob("*.json"))
    if not files:
        raise UsageError(f"no scenario files given and none in {SCENARIOS}")
    for f in files:
        if not f.is_file():
            raise UsageError(f"{f}: no such file (a page scenario is a JSON file; shipped ones are in {SCENARIOS})")
    loaded = [scenarios.load(f) for f in files]
    if runs is not None:
        loaded = [{**s, "runs": runs} for s in loaded]
    rows = setup.chosen(setup.declared(build_dir), browser)
    if browser == setup.ALL:
        for row in rows:
            if row["missing"]:
                print(f"stallbench: notice: trace --browser: {row['name']} skipped: {row['missing']}", file=sys.stderr)
        rows = [row for row in rows if not row["missing"]] or rows[:1]  # none at all: the first one says why
    drivers = [setup.driving("trace --browser", row) for row in rows]
    results, failures = {}, set()
    for d in drivers:
        result = _drive(loaded, d)
        results[d.browser] = result
        print(f"browser: {d.label} {result['version']} (headless), driven over {_protocol(rows, d.browser)} from Node "
              f"{result['node_version']}")
        failures |= {i for i, (s, outcome) in enumerate(zip(loaded, result["scenarios"]))
                     if not _print_scenario(s, outcome)}
        print()
    if len(results) > 1:
        _print_matrix(loaded, results)
    total = len(loaded)
    where = f" in every browser ({', '.join(results)})" if len(results) > 1 else ""
    print(f"\n{total} page scenario{'s' if total != 1 else ''}: {total - len(failures)} as expected{where}"
          + (f", {len(failures)} NOT" if failures else ""))
    return 1 if failures else 0


def _protocol(rows: list[dict], name: str) -> str:
    return next(row["protocol"] for row in rows if row["name"] == name)
