"""How far a verdict can be trusted on this machine, measured.

A/A: the same build run twice and compared. Every `regressed` is a false regression (the goal is
none), and each metric's detectable effect at the configured repetitions is read from the spread.

A/B: one benchmark made to do PCT% more real work (STALLBENCH_INJECT_WORK scales its `work`
parameters; see benches/harness/inject.h), run again and compared with the unchanged runs just
before and after it, pooled. Compare must flag it; the size is then cut (PCT, PCT/2, PCT/5,
PCT/10) until compare stops flagging it, which says how small a slowdown this machine and these
repetitions still catch."""
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import paths
from ..atomic import atomic_write
from .comparison import Outcome
from ..medians import median
from ..rendering import table
from ..documents import json_loads

STEPS = (1, 2, 5, 10)  # the injected sizes tried: PCT divided by these
INJECT_VARIABLE = "STALLBENCH_INJECT_WORK"  # the A/B knob, read by the harness (benches/harness/inject.h)


@dataclass
class MetricNoise:
    metric: str
    unit: str
    cells: int
    detectable_median_pct: float | None   # over the metric's cells
    detectable_max_pct: float | None
    largest_aa_change_pct: float          # the largest |change| A/A showed


# The knob adds PCT% to the work a metric waits for, so it can slow that metric by at most about
# PCT%; a regression far beyond that is the machine (load from other work), not the knob, and is
# not counted as catching the injection.
PLAUSIBLE_FACTOR = 2.0


@dataclass
class Injection:
    pct: float
    flagged: list[str]          # regressed by about the injected size: the injection caught
    implausible: list[str]      # regressed far beyond what PCT% more work can do: noise
    false_improvements: list[str]
    changes: dict[str, float]   # metric -> median change over the benchmark's cells, %
    flagged_after_correction: int = 0  # of `flagged`, how many stay significant at q < alpha


@dataclass
class Calibration:
    fingerprint: str
    machine: str
    profile: str
    repetitions: int
    alpha: float
    min_effect_pct: float
    runs: dict[str, str]                          # role -> run directory
    loads: dict[str, list[float]] = field(default_factory=dict)  # role -> 1-minute load at start, end
    false_regressions: list[str] = field(default_factory=list)
    false_improvements: list[str] = field(default_factory=list)
    false_regressions_after_correction: list[str] = field(default_factory=list)  # q < alpha (Benjamini-Hochberg)
    aa_compared: int = 0
    noise: list[MetricNoise] = field(default_factory=list)
    benchmark: str | None = None
    injections: list[Injection] = field(default_factory=list)

    @property
    def smallest_flagged_pct(self) -> float | None:
        flagged = [i.pct for i in self.injections if i.flagged]
        return min(flagged) if flagged else None


def _label(c) -> str:
    return f"{c.key[0]}/{c.key[1]} {c.key[3]} `{c.key[2]}` ({c.change_pct:+.1f}%)" if c.change_pct is not None else \
        f"{c.key[0]}/{c.key[1]} {c.key[3]} `{c.key[2]}` ({c.kind})"


def record(cal: Calibration, role: str, run) -> None:
    machine = run.meta.get("machine", {})
    cal.runs[role] = str(run.path)
    cal.loads[role] = [v[0] for v in (machine.get("load_average_start"), machine.get("load_average_end")) if v]


def aa_summary(calibration: Calibration, outcome: Outcome) -> None:
    calibration.false_regressions = [_label(c) for c in outcome.comparisons if c.verdict == "regressed"]
    calibration.false_improvements = [_label(c) for c in outcome.comparisons if c.verdict == "improved"]
    calibration.false_regressions_after_correction = [_label(c) for c in outcome.regressed_after_correction]
    calibration.aa_compared = len(outcome.comparisons)
    by_metric: dict[str, list] = {}
    for c in outcome.comparisons:
        by_metric.setdefault(c.key[3], []).append(c)
    for metric, cs in sorted(by_metric.items()):
        mdes = [c.detectable_pct for c in cs if c.detectable_pct is not None]
        calibration.noise.append(MetricNoise(
            metric, cs[0].unit, len(cs), median(mdes) if mdes else None, max(mdes) if mdes else None,
            max((abs(c.change_pct) for c in cs if c.change_pct is not None), default=0.0)))


def injection_summary(pct: float, outcome: Outcome, benchmark: str) -> Injection:
    mine = [c for c in outcome.comparisons if f"{c.key[0]}/{c.key[1]}" == benchmark]
    changes: dict[str, list[float]] = {}
    for c in mine:
        if c.change_pct is not None:
            changes.setdefault(c.key[3], []).append(c.change_pct)
    regressed = [c for c in mine if c.verdict == "regressed"]
    plausible = [c for c in regressed if c.worse_pct <= PLAUSIBLE_FACTOR * pct]
    return Injection(pct, [_label(c) for c in plausible], [_label(c) for c in regressed if c not in plausible],
                     [_label(c) for c in mine if c.verdict == "improved"],
                     {m: median(v) for m, v in sorted(changes.items())},
                     sum(1 for c in plausible if outcome.stays_significant(c)))


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"<{10 ** -digits:g}%" if 0 < value < 10 ** -digits else f"{value:.{digits}f}%"


NOISE_COLUMNS = ["metric", "unit", table.number("cells"), table.number("detectable (median)"),
                 table.number("detectable (worst cell)"), table.number("largest A/A change")]
INJECTION_COLUMNS = [table.number("injected"),
                     "caught (regressed by about that much; how many stay significant after correction)",
                     "regressed far more (noise)", "false improvements", "median change per metric"]


def markdown(cal: Calibration) -> str:
    lines = [f"# stallbench calibration: machine {cal.fingerprint}", "",
             f"{cal.machine}. Profile `{cal.profile}`, {cal.repetitions} repetitions per cell, alpha {cal.alpha:g}, "
             f"minimum effect {cal.min_effect_pct:g}% unless a metric declares its own.", "",
             "Measured on this machine as it was at the time: when other work shares it, the spread (and so the "
             "detectable effect) is larger than on a quiet machine, and a change in that other work between two "
             "runs looks like a change in the code. The 1-minute load average at the start and end of each run "
             "says how busy it was:", ""]
    lines += table.lines(["run", "directory", "load average (start → end)"],
                         [[role, f"`{path}`", " → ".join(f"{x:.1f}" for x in cal.loads.get(role, []))]
                          for role, path in cal.runs.items()])
    lines += ["", "## A/A: the same build twice", "",
              f"**{len(cal.false_regressions)} false regressions** (goal: 0) and {len(cal.false_improvements)} false "
              f"improvements over {cal.aa_compared} compared cell × metric pairs; "
              f"{len(cal.false_regressions_after_correction)} of the false regressions stay significant once p is "
              f"corrected for the {cal.aa_compared} comparisons (Benjamini–Hochberg q < {cal.alpha:g}).", ""]
    lines += [f"- false regression: {x}" for x in cal.false_regressions]
    lines += [f"- false improvement: {x}" for x in cal.false_improvements]
    lines += ["", "Detectable effect: the smallest change the test finds 80% of the time at these repetitions, from "
              "each cell's spread (median and worst over the metric's cells); beside it the largest change A/A "
              "showed with no change in the code.", ""]
    lines += table.lines(NOISE_COLUMNS, [[n.metric, n.unit, n.cells, _fmt(n.detectable_median_pct, 2),
                                          _fmt(n.detectable_max_pct, 2), _fmt(n.largest_aa_change_pct, 2)]
                                         for n in cal.noise])
    if cal.benchmark:
        smallest = cal.smallest_flagged_pct
        lines += ["", f"## A/B: `{cal.benchmark}` made to do more work", "",
                  (f"Compare flagged the injected slowdown down to **{smallest:g}%**." if smallest is not None else
                   "**Compare did not flag the injected slowdown at any size tried.**"), ""]
        lines += table.lines(INJECTION_COLUMNS, [
            [f"{i.pct:g}%", f"{len(i.flagged)} ({i.flagged_after_correction} after correction): "
             f"{'; '.join(i.flagged) or '–'}", f"{len(i.implausible)}: {'; '.join(i.implausible) or '–'}",
             "; ".join(i.false_improvements) or None, ", ".join(f"{m} {v:+.2f}%" for m, v in i.changes.items())]
            for i in cal.injections])
        lines += ["", f"*Caught* counts a regression of at most {PLAUSIBLE_FACTOR:g} times the injected size: more "
                  "work cannot slow a metric by much more than its own size, so a larger regression is the machine "
                  "(other work), not the knob, and is listed apart. A metric whose work the knob does not scale (a "
                  "probe that never waits for the scaled work) is not expected to move."]
    return "\n".join(lines) + "\n"


def save(cal: Calibration, out: Path) -> None:
    atomic_write(out / "calibration.json", json.dumps(asdict(cal), indent=2) + "\n")
    atomic_write(out / "calibration.md", markdown(cal))


def latest_for(fingerprint: str | None, root: Path = paths.RESULTS / "calibrations") -> dict | None:
    """The newest calibration of this machine, for compare to quote."""
    if not fingerprint or not root.is_dir():
        return None
    found = []
    for path in root.glob("*/calibration.json"):
        try:
            data = json_loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if data.get("fingerprint") == fingerprint:
            found.append((path.parent.name, data))
    return max(found, key=lambda f: f[0])[1] if found else None


def trust_note(cal: dict | None) -> str:
    """One line for compare's report: what the last calibration of this machine measured."""
    if cal is None:
        return ("this machine has no calibration: run `scripts/stallbench calibrate --inject FAMILY/BENCH:10` to "
                "measure its false-regression rate and the smallest slowdown compare catches here")
    smallest = [i["pct"] for i in cal.get("injections", []) if i["flagged"]]
    worst = max((n["detectable_median_pct"] or 0 for n in cal.get("noise", [])), default=0)
    ab = (f"an injected slowdown of `{cal['benchmark']}` was flagged down to {min(smallest):g}%"
          if smallest else "no A/B measured" if not cal.get("benchmark") else "an injected slowdown was NOT flagged")
    return (f"calibration of this machine ({cal['profile']} profile, {cal['repetitions']} repetitions): A/A gave "
            f"{len(cal['false_regressions'])} false regressions over {cal['aa_compared']} pairs; the noisiest metric's "
            f"typical detectable effect is {worst:.1f}%; {ab}")
