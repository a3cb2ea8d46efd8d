"""bisect.md and bisect.json: each step's evidence (the commit, the change of the metric its verdict
rests on with its interval, q and rounds, the verdict, the commits left) and the answer."""
import dataclasses
import json

from ..rendering import table
from . import ab_report, power, verdict_table
from .bisection import Bisection, Step

STEP_COLUMNS = [table.number("step"), table.Column("commit"), table.Column("subject"), table.Column("cell / metric"),
                *(verdict_table.COLUMNS[name][0] for name in ("change", "interval", "q", "rounds")),
                table.Column("verdict"), table.number("commits left"), table.number("time")]


def _figures(step: Step) -> list:
    c = step.deciding
    if c is None:
        return [step.note or None, None, None, None, None]
    return [f"{'/'.join(c.key[:3])} · {c.key[3]}",
            *(verdict_table.COLUMNS[name][1](c, ab_report.SPREAD_DIGITS) for name in ("change", "interval", "q", "rounds"))]


def duration(minutes: float) -> str:
    return f"{minutes * 60:.0f} s" if minutes < 1 else f"{minutes:.1f} min"


def step_rows(bisection: Bisection) -> list[list]:
    return [[s.number, f"`{s.commit.hash[:8]}`", s.commit.subject, *_figures(s), s.verdict, s.left, duration(s.minutes)]
            for s in bisection.steps]


def could_see(step: Step, alpha: float) -> str:
    """Why a noisy step could not tell: what its rounds could have detected (power.py), or, when each
    metric had the power, the interval that still reaches past the minimum effect."""
    record = power.blind(step.comparisons, alpha)
    if record:
        return power.sentence(record)
    c = step.deciding
    return (f"inconclusive: `{'/'.join(c.key)}`'s 95% interval [{c.ci_low_pct:+.1f}%, {c.ci_high_pct:+.1f}%] still "
            f"reaches past the {c.min_effect_pct:g}% minimum effect" if c and c.ci_low_pct is not None else
            "inconclusive: no interval could be formed")


def answer(bisection: Bisection, summary: dict) -> str:
    """One line: the commit isolated, or why the search stopped and where the change is."""
    if bisection.result == "inconclusive" and len(bisection.steps) == 1:
        return (f"BAD {summary['bad']['given']} against GOOD {summary['good']['given']}: "
                f"{could_see(bisection.steps[0], summary['alpha'])}")
    if bisection.result == "nothing to bisect":
        return f"nothing to bisect: BAD {summary['bad']['given']} is not confirmed worse than GOOD {summary['good']['given']}"
    found = bisection.isolated
    if found:
        return f"first regressed commit: {found.hash} {found.subject}"
    good, bad = bisection.line[bisection.good], bisection.line[bisection.bad]
    why = (could_see(bisection.steps[-1], summary["alpha"]) if bisection.result == "inconclusive"
           else "undecidable: the commits left between could not be measured")
    return (f"{why}; the change is in {good.hash[:8]}..{bad.hash[:8]}, {bisection.bad - bisection.good} "
            f"commits (git log --first-parent {good.hash[:8]}..{bad.hash[:8]})")


def markdown(bisection: Bisection, summary: dict) -> str:
    good, bad = summary["good"], summary["bad"]
    lines = [f"# stallbench bisect: {good['given']} → {bad['given']}", "",
             f"GOOD `{good['given']}` ({good['commit']}), BAD `{bad['given']}` ({bad['commit']}): "
             f"{len(bisection.line) - 1} commits on BAD's first-parent line after GOOD. Cells: `{summary['filter']}`"
             f"{', metric ' + summary['metric'] if summary['metric'] else ''}; after step 0 the steps judge only "
             f"what regressed there. Every step is a paired A/B of its commit against GOOD's build (ab's rounds: "
             f"up to {summary['max_rounds']}, at most {summary['budget_minutes']:g} minutes a step; alpha "
             f"{summary['alpha']:g}); `change` is the Hodges–Lehmann estimate of COMMIT/GOOD with its 95% interval "
             f"for the metric the verdict rests on (the worst regression, else the noisiest metric). "
             f"{len(bisection.steps)} steps in {duration(summary['minutes'])}.", "",
             f"**{answer(bisection, summary)}**; exit {summary['exit']}.", "",
             table.markdown(STEP_COLUMNS, step_rows(bisection))]
    for step in bisection.steps:
        lines += [f"## Step {step.number}: `{step.commit.hash[:8]}` {step.commit.subject}", ""]
        if step.note:
            lines += [f"- {step.note}", ""]
        if step.comparisons:
            lines.append(verdict_table.markdown(step.comparisons, ab_report.COLUMNS, ab_report.SPREAD_DIGITS))
    return "\n".join(lines)


def _step_json(step: Step) -> dict:
    return {"step": step.number, "position": step.position, "commit": step.commit.hash, "subject": step.commit.subject,
            "verdict": step.verdict, "commits_left": step.left, "minutes": step.minutes, "note": step.note,
            "runs": step.runs, "comparisons": [dataclasses.asdict(c) for c in step.comparisons]}


def to_json(bisection: Bisection, summary: dict) -> str:
    found = bisection.isolated
    return json.dumps({
        **summary, "result": bisection.result, "answer": answer(bisection, summary),
        "commit": {"hash": found.hash, "subject": found.subject} if found else None,
        "range": {"good": bisection.line[bisection.good].hash, "bad": bisection.line[bisection.bad].hash,
                  "commits": bisection.bad - bisection.good},
        "line": [c.hash for c in bisection.line], "steps": [_step_json(s) for s in bisection.steps]}, indent=2) + "\n"
