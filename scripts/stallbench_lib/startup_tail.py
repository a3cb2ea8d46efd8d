"""Node's start-up tail on one line: from the clock read of a main module's first timer to the loop's
first timers check (workloads/loop/node/startup_tail.cjs). It decides whether a timer (or a pool
request) the main module leaves pending is due in the loop's first iteration, so the model of a line
spends as long before its loop in every scenario where that can change the order (stallbench_trace
startup-race says which), annotated or not. Where the model of a line gets it, first found first:

1. measured now, on the Node compared (`trace --node`), its probe runs spread evenly among that Node's
   runs of the scenarios compared, so that both see the same state of the machine;
2. measured now on the installed line (one probe run per run of the model, MEASURE_RUNS to
   SPREAD_MAX_RUNS, as in 1), when no Node is compared, and stored beside it for 3: the tail is a few
   hundred microseconds of Node's own work, and how long that takes moves with the machine's state far
   beyond what its load average says (Node 20's median was 0.17 ms on an idle machine, 0.25 and 0.35
   ms in two batches of 100 probes back to back at load 1.5 per core);
3. the last tail measured on the installed line (2), when Node may not be run now (STALLBENCH_NODE=none):
   <deps>/npm/node-LINE/startup-tail.json beside the binary, with the date and the load, while the
   load per core now is within STORED_LOAD_PER_CORE of the load it was measured at (or within a
   factor of two). Installing a line does not measure it, so that an install costs its download alone;
4. none: the model shows the orders such a scenario can take, not their odds.

    python3 -m stallbench_lib.startup_tail record NODE_BINARY OUT.json
"""
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import node as nodejs, paths
from .atomic import atomic_write
from .errors import UsageError
from .medians import median

PROBE = paths.ROOT / "workloads" / "loop" / "node" / "startup_tail.cjs"
# The read-to-return time is a share of runs (a tick fell between the two, or not): at 20 runs its
# binomial error alone is about 0.07 ms for a 0.1 ms share, 7 points of the race's odds.
MEASURE_RUNS = 40
# Among a Node's own runs, one probe per run compared, up to this many: the odds of a race run 100
# times are only as good as the tail's read-to-return share (about 6 points of error at 40 probes).
SPREAD_MAX_RUNS = 200
# A stored tail is used while the machine's load per core is within this of the load it was measured
# at, or within a factor of two of it. Node 20's tail doubled between an idle machine and one at load 15 per core here (0.17 to 0.33 ms
# median; the timer first in 18% and 38% of runs), far more than the other lines': a tail stored on an
# idle machine made the model of 20 give the immediate first 80% of the time where Node gave 62%.
STORED_LOAD_PER_CORE = 1.0
RECORD_RUNS = 100  # `record` by hand: worth more runs than a trace's (20 s a line on a loaded machine)
STORED_NAME = "startup-tail.json"
PROBE_TIMEOUT_S = 60


@dataclass
class Tail:
    """What the model of a line spends before its loop, and where that came from."""
    samples_ms: list[float] = field(default_factory=list)
    source: str = ""   # how the samples were had, or why there are none
    needed: bool = True  # False: no scenario here can be changed by it

    def describe(self) -> str:
        if not self.needed:
            return ("start-up tail: not needed (nothing these scenarios' main modules start is pending when the "
                    "loop starts)")
        if not self.samples_ms:
            return (f"start-up tail: not modelled ({self.source}): where the main module leaves a timer or a pool "
                    "request pending, the model shows the orders it can take, not their odds")
        return (f"start-up tail: {median(self.samples_ms):.3f} ms median of {len(self.samples_ms)} runs, {self.source}; "
                "spent by the model before its loop, one run's value per run")

    def tool_args(self) -> list[str]:
        """stallbench_trace run's --startup-tail-ms for this tail."""
        if not self.needed:
            return []
        if not self.samples_ms:
            return ["--startup-tail-ms", "unknown"]
        return ["--startup-tail-ms", ",".join(f"{min(max(t, 0), 1000):.4f}" for t in self.samples_ms)]


def tails_from_probes(probes: list[dict]) -> list[float]:
    """Per probe run, the time from the first timer's clock read to the loop's first timers check:
    from the setTimeout call's return to the loop, plus the mean time from the read to that return
    (the share of runs where a millisecond tick fell between them). Runs whose millisecond base is
    uncertain are left out."""
    usable = [p for p in probes if p["exact"] and p["after_read"] in (0, 1)]
    if not usable:
        return []
    read_to_return = sum(p["after_read"] for p in usable) / len(usable)
    return [max(p["gap_ms"], 0.0) + read_to_return for p in usable]


def _probe_runs(node: nodejs.Node, runs: int) -> tuple[list[float], str]:
    """The tail samples of `runs` probe runs of `node`, or none and why."""
    probes = []
    for _ in range(runs):
        result, error = nodejs.run_json(node, str(PROBE), PROBE_TIMEOUT_S)
        if result is None:
            return [], f"measuring it under Node {node.version} failed: {error}"
        probes.append(result)
    samples = tails_from_probes(probes)
    return samples, "" if samples else f"no usable probe run of Node {node.version}"


def probe_runs_for(runs: int) -> int:
    """How many probe runs give the tail of `runs` runs of a race: one each, from MEASURE_RUNS to
    SPREAD_MAX_RUNS. Odds read from 100 runs are only as good as the tail they were drawn with: 40
    probes alone put about 6 points of error on them, and with two processes spinning per core the
    model of Node 22 without `--node` was 17 points from Node once (docs/starvation.md)."""
    return min(max(runs, MEASURE_RUNS), SPREAD_MAX_RUNS)


def measure(node: nodejs.Node, runs: int, how: str = "measured now") -> Tail:
    samples, why_not = _probe_runs(node, runs)
    return Tail(samples, f"Node {node.version.lstrip('v')}, {how}" if samples else why_not)


class Spread:
    """Probe runs of `node` spread evenly over `total` other runs of it (the scenarios compared), one
    per run between MEASURE_RUNS and SPREAD_MAX_RUNS: call after_run() after each of those; tail() when
    they are done."""

    def __init__(self, node: nodejs.Node, total: int):
        self.node, self.total, self.done = node, max(total, 1), 0
        self.runs = probe_runs_for(total)
        self.probes: list[dict] = []
        self.failed = ""

    def after_run(self) -> None:
        self.done += 1
        due = -(-self.done * self.runs // self.total)  # ceil: the last run brings them to self.runs
        while len(self.probes) < due and not self.failed:
            result, error = nodejs.run_json(self.node, str(PROBE), PROBE_TIMEOUT_S)
            if result is None:
                self.failed = f"measuring it under Node {self.node.version} failed: {error}"
            else:
                self.probes.append(result)

    def tail(self) -> Tail:
        samples = tails_from_probes(self.probes)
        if self.failed or not samples:
            return Tail(source=self.failed or f"no usable probe run of Node {self.node.version}")
        return Tail(samples, f"Node {self.node.version.lstrip('v')}, measured now, among its runs compared")


def stored_path(line: str) -> Path:
    return nodejs.deps_dir() / "npm" / f"node-{line}" / STORED_NAME


def _load_per_core(load_average: float, cores: int | None) -> float:
    return load_average / max(cores or 1, 1)


def stored(line: str) -> tuple[Tail | None, str]:
    """The tail stored with the installed line, when there is a readable one of the pinned version
    measured at a load per core like this one's; else None and why not (empty: none stored)."""
    path = stored_path(line)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        samples = [float(x) for x in doc["samples_ms"]]
        version, measured = str(doc["node"]), str(doc["measured"])
        then = _load_per_core(float(doc["load_average"][0]), int(doc["cores"]))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None, ""
    if not samples or version.lstrip("v") != nodejs.pinned().get(line):
        return None, ""
    now = _load_per_core(os.getloadavg()[0], os.cpu_count())
    if abs(now - then) > STORED_LOAD_PER_CORE and max(now, then) > 2 * min(now, then):
        return None, (f"the one stored with it was measured at load {then:.1f} per core, the machine is at "
                      f"{now:.1f} now")
    return Tail(samples, f"Node {version.lstrip('v')}, measured on {measured[:10]} at load "
                         f"{then:.1f} per core (stored in {path})"), ""


def without_node(line: str, needed: bool, runs: int = MEASURE_RUNS) -> Tail:
    """The tail the model of `line` spends in `runs` runs when no Node is compared: measured now on the
    installed line, else stored with it, else none (the module docstring's 2-4)."""
    if not needed:
        return Tail(needed=False)
    binary = nodejs.installed_path(line)
    cannot_run = ("running Node is disabled (STALLBENCH_NODE)" if os.environ.get("STALLBENCH_NODE") in ("", "none")
                  else f"Node {line} is not installed to measure it: scripts/bootstrap --node {line}" if binary is None
                  else "")
    if not cannot_run:
        try:
            node = nodejs.probe(line, str(binary))
        except UsageError as e:
            cannot_run = str(e)
        else:
            probes = probe_runs_for(runs)
            tail = measure(node, probes, "measured now on the installed line")
            if tail.samples_ms:
                _store(node, tail.samples_ms, probes, stored_path(line))
                return tail
            cannot_run = tail.source
    found, why_not = stored(line)
    if found:
        return found
    return Tail(source=f"{cannot_run}; {why_not}" if why_not else cannot_run)


def record(binary: str, out: Path) -> int:
    """Measures the tail of the Node at `binary` and writes it to `out`."""
    try:
        node = nodejs.probe("install", binary)
    except UsageError as e:
        print(f"stallbench: notice: start-up tail not stored: {e}", file=sys.stderr)
        return 1
    samples, why_not = _probe_runs(node, RECORD_RUNS)
    if not samples:
        print(f"stallbench: notice: start-up tail not stored: {why_not}", file=sys.stderr)
        return 1
    _store(node, samples, RECORD_RUNS, out)
    return 0


def _store(node: nodejs.Node, samples: list[float], runs: int, out: Path) -> None:
    """The tail of `node` (`samples` of `runs` probe runs) for a later run that may not run it (a
    failed write only loses that)."""
    try:
        atomic_write(out, json.dumps({
            "node": node.version, "libuv": node.libuv,
            "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "runs": runs, "load_average": list(os.getloadavg()), "cores": os.cpu_count(),
            "samples_ms": [round(x, 4) for x in samples],
        }, indent=1) + "\n")
    except OSError as e:
        print(f"stallbench: notice: start-up tail not stored in {out}: {e.strerror}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "record":
        raise SystemExit("usage: python3 -m stallbench_lib.startup_tail record NODE_BINARY OUT.json")
    raise SystemExit(record(sys.argv[2], Path(sys.argv[3])))
