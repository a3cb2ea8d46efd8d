"""ab.md, ab.csv and ab.json: what a paired A/B run found, worst first."""
import json
from pathlib import Path

from ..atomic import atomic_write

from . import comparison, geomean, power, verdict_table
from .comparison import CSV_COLUMNS, Outcome, busy_note
from .samples import describe_machine


# The verdict table's columns for paired rounds: the change's interval, and rounds for repetitions.
COLUMNS = ["verdict", "benchmark", "params", "metric", "base", "current", "change", "interval", "p", "q", "spread",
           "detectable", "min effect", "rounds", "note"]
SPREAD_DIGITS = 2
SHARD = "shard"  # ab.json's verdict for one shard of a group: the merge judges


def minutes_split(build_minutes: float, session) -> dict:
    """ab.json's `time`: the minutes of the two builds, of the instruction counts under callgrind, and
    of the rounds (with the verdicts), so a reader sees where an A/B's time went."""
    return {"builds": round(build_minutes, 3), "callgrind": round(session.callgrind_minutes, 3),
            "rounds": round(session.minutes - session.callgrind_minutes, 3)}


def time_sentence(summary: dict) -> str:
    """'12.4 minutes: builds 9.1, callgrind 2.5, rounds 0.8 of the 30-minute budget'."""
    split = summary.get("time")
    if not split:  # a merged group: each shard timed its own
        return f"{summary['minutes']:.1f} minutes of a {summary['budget_minutes']:g}-minute budget"
    return (f"{sum(split.values()):.1f} minutes: builds {split['builds']:.1f}, callgrind {split['callgrind']:.1f}, "
            f"rounds {split['rounds']:.1f} of the {summary['budget_minutes']:g}-minute budget")


def verdict_line(summary: dict) -> str:
    """The first thing ab.md and the pull-request comment say: what the exit code means."""
    if summary.get("verdict") == power.INCONCLUSIVE:
        return f"**{power.sentence(summary['inconclusive'])}**; exit {summary['exit']}."
    if summary.get("verdict") == "incomplete":
        return f"**incomplete**: a shard of the group is missing or unfinished (below), so it was not all judged; exit {summary['exit']}."
    if summary.get("verdict") == SHARD:
        return ("**one shard of a group**: the group's verdict and exit code are `stallbench merge`'s; "
                f"exit {summary['exit']}.")
    if summary.get("verdict") == "regressed":
        n = len(summary.get("gating", []))
        return f"**regressed**: {n} gated {'metric' if n == 1 else 'metrics'}; exit {summary['exit']}."
    return f"**passed**: nothing gated regressed, and every gated metric could see its minimum effect; exit {summary['exit']}."


def markdown(outcome: Outcome, summary: dict, runs: dict, means: dict) -> str:
    """`means`: {"geomean": ..., "geomean_instructions": ...} as geomean.summarise_paired/summarise give them."""
    counts = outcome.counts()
    base, current = summary["base"], summary["current"]
    lines = [f"# stallbench ab: {base['given']} → {current['given']}", "", verdict_line(summary), "",
             f"BASE `{base['given']}` ({base['commit'] or 'build ' + base['build']}), CURRENT `{current['given']}` "
             f"({current['commit'] or 'build ' + current['build']}), {summary['pairs']} cells in common, "
             f"{summary['rounds']} rounds at most ({summary['min_rounds']} at least per cell, up to "
             f"{summary['max_rounds']}), {time_sentence(summary)}"
             f"{' — **the budget ended the rounds**' if summary['budget_spent'] else ''}. "
             f"Machine: {describe_machine(runs['current'].meta)}.", "",
             f"**{counts['regressed']} regressed**, {counts['noisy']} noisy, {counts['unchanged']} unchanged, "
             f"{counts['improved']} improved; exit {summary['exit']}.", "",
             "Each round ran BASE and CURRENT of a cell back to back, in a random order; `change` is the "
             "Hodges–Lehmann estimate of CURRENT/BASE over the rounds with its 95% interval, `p` the Wilcoxon "
             "signed-rank test of the per-round ratios, `q` that p adjusted for all "
             f"{summary['tested']} metrics tested (Benjamini–Hochberg at {summary['alpha']:g}: the exit code's "
             "false-alarm rate on a night with no change is at most alpha), `spread` the robust spread of the "
             "per-round ratio, `detectable` the change these rounds find 80% of the time.", ""]
    for key, what in (("geomean", "the measured metrics' changes (Hodges–Lehmann), 95% interval by a bootstrap "
                                  "over rounds"),
                      ("geomean_instructions", "the instruction counts' ratios of medians")):
        if summary_table := geomean.markdown(means.get(key, {}), what):
            lines += [summary_table]
    lines += [f"- {n}" for n in outcome.notes] + ([""] if outcome.notes else [])
    for run in runs.values():
        note = busy_note(run)
        if note:
            lines += [f"- {note}", ""]
    lines.append(verdict_table.markdown(outcome.comparisons, COLUMNS, SPREAD_DIGITS))
    return "\n".join(lines)


INTERVAL_CSV_COLUMNS = ("ci_low_pct", "ci_high_pct")
AB_CSV_COLUMNS = CSV_COLUMNS + list(INTERVAL_CSV_COLUMNS)


def to_csv(outcome: Outcome) -> str:
    return comparison.to_csv(outcome, INTERVAL_CSV_COLUMNS)


def to_json(outcome: Outcome, summary: dict) -> str:
    return json.dumps({**summary, "counts": outcome.counts(),
                       "regressed": ["/".join(c.key) for c in outcome.regressed]}, indent=2) + "\n"


def write(out: Path, outcome: Outcome, summary: dict, runs: dict, means: dict) -> str:
    """ab.md, ab.csv and ab.json into `out` (ab's, and merge's for a sharded ab); returns ab.md's text."""
    text = markdown(outcome, summary, runs, means)
    atomic_write(out / "ab.md", text)
    atomic_write(out / "ab.csv", to_csv(outcome))
    atomic_write(out / "ab.json", to_json(outcome, summary | {k: geomean.as_json(v) for k, v in means.items()}))
    return text
