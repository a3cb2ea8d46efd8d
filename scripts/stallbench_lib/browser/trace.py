"""`stallbench trace --browser`: page scenarios (workloads/browser/scenarios/, format in
scenario.py) run in headless Chromium by workloads/browser/driver/trace.mjs, each run on a freshly
loaded page; the orders are printed as Node's trace prints them, distinct orders counted for races.
Exit 0 when every order is one the scenario expects, 1 otherwise, 2 for bad input (nothing runs)."""
import json
import subprocess
from collections import Counter
from pathlib import Path

from .. import children, scenario_text
from ..errors import UsageError
from . import scenario as scenarios
from .setup import BROWSER_DIR, driving

SCENARIOS = BROWSER_DIR / "scenarios"
RUN_SLACK_MS = 15_000    # a page load and the run's own bookkeeping, beyond what its ops wait for
START_ALLOWANCE_S = 180  # Chromium's start on a loaded machine


def _limit_ms(loaded: list[dict]) -> int:
    return RUN_SLACK_MS + max(scenarios.time_bound_ms(s["program"]) for s in loaded)


def _drive(loaded: list[dict]) -> dict:
    d = driving("trace --browser")
    limit_ms = _limit_ms(loaded)
    request = {"limit_ms": limit_ms,
               "scenarios": [{"file": s["file"], "program": s["program"], "runs": s["runs"]} for s in loaded]}
    timeout_s = START_ALLOWANCE_S + sum(s["runs"] for s in loaded) * limit_ms / 1e3
    argv = [d.node, str(BROWSER_DIR / "driver" / "trace.mjs"), "--chromium", d.chromium,
            "--playwright", str(d.playwright), "--pages", str(BROWSER_DIR / "pages")]
    try:
        out = children.run(argv, input=json.dumps(request), text=True, timeout_s=timeout_s, reserves_address_space=True)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"stallbench: trace --browser: the browser did not finish within {timeout_s:.0f} s")
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        said = [line for line in out.stderr.splitlines() if line.strip()]
        raise SystemExit(f"stallbench: trace --browser: the driver failed (exit {out.returncode})"
                         + (f": {said[-1]}" if said else ""))
    result = json.loads(lines[-1])
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


def run(files: list[Path], runs: int | None) -> int:
    """Runs the page scenarios in `files` (none: the shipped ones), each `runs` times (None: as
    each scenario says)."""
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
    result = _drive(loaded)
    print(f"browser: Chromium {result['chromium']} (headless), driven over the DevTools protocol from Node "
          f"{result['node_version']}")
    failures = sum(not _print_scenario(s, outcome) for s, outcome in zip(loaded, result["scenarios"]))
    total = len(loaded)
    print(f"\n{total} page scenario{'s' if total != 1 else ''}: {total - failures} as expected"
          + (f", {failures} NOT" if failures else ""))
    return 1 if failures else 0
