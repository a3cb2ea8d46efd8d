"""`calibrate --trials N`: how often each way of judging a change is right on this machine, counted
over repeated trials instead of read from one.

Per trial, six verdicts, all on the same cells and the same build:
- paired A/A: `ab BUILD BUILD` (nothing differs): exit 0 is right;
- paired A/B: `ab BUILD BUILD --inject BENCH:PCT` (CURRENT does PCT% more work): catching it is right;
- duet A/A and A/B: the same with `ab --duet` (the two processes of a round at the same time);
- sequential A/A: `run` twice, then `compare` (today's nightly, run-then-compare): exit 0 is right;
- sequential A/B: `run`, `run` with the same injection, then `compare`: catching it is right.
"Caught" means the exit code said regressed and a metric of the injected benchmark regressed by at
most twice PCT (more work cannot slow a metric by much more than its size; calibration.py).

Each command runs as its own process through the launcher, one after the other, while whatever
else runs on the machine goes on: the trials measure the methods under the machine's real load."""
import csv
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import children, paths
from ..medians import median
from ..rendering import table
from .calibration import INJECT_VARIABLE, PLAUSIBLE_FACTOR
from .power import INCONCLUSIVE_EXIT

TRIAL_TIMEOUT_S = 30 * 60
METHODS = ("paired", "duet", "sequential")
JUDGED = (0, 1, INCONCLUSIVE_EXIT)  # exit codes of a verdict (ab's inconclusive is neither right nor a false alarm)


@dataclass
class Verdict:
    method: str                 # paired (ab), duet (ab --duet) or sequential (run, run, compare)
    kind: str                   # A/A or A/B
    exit: int
    regressed: list[str]        # metric names that regressed (any cell)
    caught: bool                # A/B: the injected benchmark regressed plausibly
    changes: dict[str, float]   # metric -> median change % over the injected benchmark's cells
    detectable: dict[str, float]  # metric -> median detectable effect % over its cells
    seconds: float
    load: float                 # 1-minute load average when the trial started


@dataclass
class Trials:
    benchmark: str
    pct: float
    command: list[str]
    methods: tuple[str, ...] = METHODS
    verdicts: list[Verdict] = field(default_factory=list)


def _launch(args: list[str], env: dict | None = None) -> int:
    full = {**os.environ, **(env or {})}
    done = children.run([str(paths.ROOT / "scripts" / "stallbench"), *args], timeout_s=TRIAL_TIMEOUT_S, env=full,
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode not in JUDGED:  # counted as a wrong answer of that trial, and said
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        print(f"stallbench: calibrate: stallbench {args[0]} exited {done.returncode}: {tail[0]}", file=sys.stderr)
    return done.returncode


def _rows(table: Path) -> list[dict]:
    with open(table, newline="") as f:
        return list(csv.DictReader(f))


def _summarise(method: str, kind: str, code: int, table: Path, benchmark: str, pct: float, seconds: float,
               load: float) -> Verdict:
    rows = _rows(table) if code in JUDGED else []
    mine = [r for r in rows if f"{r['family']}/{r['benchmark']}" == benchmark]
    regressed = [r for r in rows if r["verdict"] == "regressed"]
    plausible = [r for r in regressed if r in mine and r["change_pct"]
                 and _worse(r) <= PLAUSIBLE_FACTOR * pct]
    by_metric: dict[str, list[float]] = {}
    mde: dict[str, list[float]] = {}
    for r in mine:
        if r["change_pct"]:
            by_metric.setdefault(r["metric"], []).append(float(r["change_pct"]))
        if r["detectable_pct"]:
            mde.setdefault(r["metric"], []).append(float(r["detectable_pct"]))
    return Verdict(method, kind, code, sorted({r["metric"] for r in regressed}), code == 1 and bool(plausible),
                   {m: median(v) for m, v in sorted(by_metric.items())},
                   {m: median(v) for m, v in sorted(mde.items())}, seconds, load)


def _worse(row: dict) -> float:
    change = float(row["change_pct"])
    return change if row["better"] == "lower" else -change


def paired_trial(method: str, kind: str, common: list[str], ab_args: list[str], build: Path, inject: str, out: Path,
                 benchmark: str, pct: float) -> Verdict:
    """ab_args: ab's own options and the thresholds (--alpha, --min-effect)."""
    started, load = time.monotonic(), os.getloadavg()[0]
    extra = (["--inject", inject] if kind == "A/B" else []) + (["--duet"] if method == "duet" else [])
    code = _launch(["ab", str(build), str(build), *common, *ab_args, *extra, "--out", str(out)])
    return _summarise(method, kind, code, out / "ab.csv", benchmark, pct, time.monotonic() - started, load)


def sequential_trial(kind: str, common: list[str], run_args: list[str], judge: list[str], inject: str, out: Path,
                     benchmark: str, pct: float) -> Verdict:
    started, load = time.monotonic(), os.getloadavg()[0]
    codes = []
    for side in ("base", "current"):
        env = {INJECT_VARIABLE: inject} if kind == "A/B" and side == "current" else {}
        codes.append(_launch(["run", *common, *run_args, "--no-build", "--no-report", "--out", str(out / side)], env))
    code = 2
    if max(codes) < 2:
        base, current = (next((out / side).iterdir()) for side in ("base", "current"))
        # --gate: the trial measures run-then-compare used as a gate, whatever the load did between the runs
        code = _launch(["compare", str(base), str(current), *judge, "--gate", "--out", str(out / "compare")])
    return _summarise("sequential", kind, code, out / "compare" / "compare.csv", benchmark, pct,
                      time.monotonic() - started, load)


def run_trials(count: int, common: list[str], judge: list[str], ab_args: list[str], run_args: list[str], build: Path,
               benchmark: str, pct: float, out: Path, methods: tuple[str, ...] = METHODS) -> Trials:
    """count trials of each kind, the verdicts of a trial back to back (A/A and A/B alternate which
    goes first, so a slow spell of the machine does not always land on the same kind)."""
    inject = f"{benchmark}:{pct:g}"
    trials = Trials(benchmark, pct, ["calibrate", *sys.argv[2:]], methods)
    for t in range(count):
        kinds = ("A/A", "A/B") if t % 2 == 0 else ("A/B", "A/A")
        for kind in kinds:
            tag = f"trial{t:02d}-{kind.replace('/', '')}"
            for method in methods:
                if method == "sequential":
                    verdict = sequential_trial(kind, common, run_args, judge, inject, out / f"{tag}-{method}",
                                               benchmark, pct)
                else:
                    verdict = paired_trial(method, kind, common, [*ab_args, *judge], build, inject,
                                           out / f"{tag}-{method}", benchmark, pct)
                trials.verdicts.append(verdict)
            print(f"stallbench: calibrate: trial {t + 1}/{count} {kind}: " +
                  ", ".join(f"{v.method} exit {v.exit}" for v in trials.verdicts[-len(methods):]), file=sys.stderr,
                  flush=True)
        save(trials, out)
    return trials


def _share(verdicts: list[Verdict], test) -> str:
    return f"{sum(1 for v in verdicts if test(v))} of {len(verdicts)}"


METHOD_COLUMNS = ["method", *map(table.number, ("A/A: exit 0 (right)", f"A/A: inconclusive (exit {INCONCLUSIVE_EXIT})",
                                                 "A/B: caught (right)", "A/B: exit 1 for any reason",
                                                 "minutes per trial (median)"))]


def markdown(trials: Trials) -> str:
    named = {"paired": "paired rounds (`ab`)", "duet": "`ab --duet`", "sequential": "run-then-compare"}
    lines = ["# stallbench calibration: " + ", ".join(named[m] for m in trials.methods), "",
             f"`{' '.join(trials.command)}`: {len(trials.verdicts) // (2 * len(trials.methods))} trials of each kind; A/B injects "
             f"{trials.pct:g}% more work into `{trials.benchmark}`. 1-minute load average at the trials' starts: "
             f"{_load_range(trials.verdicts)} (other work on the machine went on throughout).", ""]
    rows = []
    for method in trials.methods:
        aa = [v for v in trials.verdicts if v.method == method and v.kind == "A/A"]
        ab = [v for v in trials.verdicts if v.method == method and v.kind == "A/B"]
        minutes = median(v.seconds for v in aa + ab) / 60 if aa + ab else 0
        rows.append([method, _share(aa, lambda v: v.exit == 0), _share(aa, lambda v: v.exit == INCONCLUSIVE_EXIT),
                     _share(ab, lambda v: v.caught),
                     _share(ab, lambda v: v.exit == 1), f"{minutes:.1f}"])
    lines += table.lines(METHOD_COLUMNS, rows)
    lines += ["", "Detectable effect per metric (median over the trials; the change each method finds 80% of the "
              "time at its own repetitions or rounds), and the median change the A/B trials measured:", ""]
    rows = []
    metrics = sorted({m for v in trials.verdicts for m in v.detectable})
    for metric in metrics:
        cells = []
        for field_name, kinds in (("detectable", ("A/A", "A/B")), ("changes", ("A/B",))):
            for method in trials.methods:
                values = [getattr(v, field_name)[metric] for v in trials.verdicts
                          if v.method == method and v.kind in kinds and metric in getattr(v, field_name)]
                cells.append(f"{median(values):.2f}%" if values else None)
        rows.append([metric, *cells])
    lines += table.lines(["metric", *(table.number(f"{m} detectable") for m in trials.methods),
                          *(table.number(f"{m} A/B change") for m in trials.methods)], rows)
    lines += ["", "False alarms (A/A trials that exited 1) and what regressed:", ""]
    for v in trials.verdicts:
        if v.kind == "A/A" and v.exit == 1:
            lines.append(f"- {v.method}: {', '.join(v.regressed) or 'a failure'} (load {v.load:.1f})")
    return "\n".join(lines) + "\n"


def _load_range(verdicts: list[Verdict]) -> str:
    loads = [v.load for v in verdicts]
    return f"{min(loads):.1f} to {max(loads):.1f}" if loads else "–"


def save(trials: Trials, out: Path) -> None:
    from ..atomic import atomic_write

    atomic_write(out / "trials.json", json.dumps(asdict(trials), indent=2) + "\n")
    atomic_write(out / "trials.md", markdown(trials))
