"""ab.md, ab.csv and ab.json: what a paired A/B run found, worst first."""
import csv
import io
import json

from .comparison import CSV_COLUMNS, Outcome, busy_note
from .samples import describe_machine


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.4g}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:+.2f}%"


def _interval(c) -> str:
    if getattr(c, "ci_low_pct", None) is None:  # instruction counts: no interval, see `n`
        return "–"
    return f"[{c.ci_low_pct:+.2f}%, {c.ci_high_pct:+.2f}%]"


def markdown(outcome: Outcome, summary: dict, runs: dict) -> str:
    counts = outcome.counts()
    base, current = summary["base"], summary["current"]
    lines = [f"# stallbench ab: {base['given']} → {current['given']}", "",
             f"BASE `{base['given']}` ({base['commit'] or 'build ' + base['build']}), CURRENT `{current['given']}` "
             f"({current['commit'] or 'build ' + current['build']}), {summary['pairs']} cells in common, "
             f"{summary['rounds']} rounds at most ({summary['min_rounds']} at least per cell, up to "
             f"{summary['max_rounds']}), {summary['minutes']:.1f} minutes of a {summary['budget_minutes']:g}-minute "
             f"budget{' — **the budget ended the rounds**' if summary['budget_spent'] else ''}. "
             f"Machine: {describe_machine(runs['current'].meta)}.", "",
             f"**{counts['regressed']} regressed**, {counts['noisy']} noisy, {counts['unchanged']} unchanged, "
             f"{counts['improved']} improved; exit {summary['exit']}.", "",
             "Each round ran BASE and CURRENT of a cell back to back, in a random order; `change` is the "
             "Hodges–Lehmann estimate of CURRENT/BASE over the rounds with its 95% interval, `p` the Wilcoxon "
             "signed-rank test of the per-round ratios, `q` that p adjusted for all "
             f"{summary['tested']} metrics tested (Benjamini–Hochberg at {summary['alpha']:g}: the exit code's "
             "false-alarm rate on a night with no change is at most alpha), `spread` the robust spread of the "
             "per-round ratio, `detectable` the change these rounds find 80% of the time.", ""]
    lines += [f"- {n}" for n in outcome.notes] + ([""] if outcome.notes else [])
    for run in runs.values():
        note = busy_note(run)
        if note:
            lines += [f"- {note}", ""]
    lines += ["| verdict | benchmark | params | metric | base | current | change | 95% interval | p | q | spread | "
              "detectable | min effect | rounds | note |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in outcome.comparisons:
        family, bench, params, metric = c.key
        verdict = f"**{c.verdict}**" if c.verdict == "regressed" else c.verdict
        note = "; ".join(x for x in (c.kind, c.note) if x).replace("|", "/")
        lines.append(f"| {verdict} | {family}/{bench} | `{params}` | {metric} ({c.unit}, {c.better} is better) | "
                     f"{_num(c.base_median)} | {_num(c.current_median)} | {_pct(c.change_pct)} | {_interval(c)} | "
                     f"{'–' if c.p_value is None else f'{c.p_value:.2g}'} | "
                     f"{'–' if c.q_value is None else f'{c.q_value:.2g}'} | "
                     f"{'–' if c.cv_pct is None else f'{c.cv_pct:.2f}%'} | "
                     f"{'–' if c.detectable_pct is None else f'{c.detectable_pct:.2f}%'} | {c.min_effect_pct:g}% | "
                     f"{c.base_n} | {note} |")
    if not outcome.comparisons:
        lines.append("| – | no cell and metric in common | | | | | | | | | | | | | |")
    return "\n".join(lines) + "\n"


AB_CSV_COLUMNS = CSV_COLUMNS + ["ci_low_pct", "ci_high_pct"]


def to_csv(outcome: Outcome) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(AB_CSV_COLUMNS)
    for c in outcome.comparisons:
        row = [*c.key, c.unit, c.better, c.base_n, c.current_n, c.base_median, c.current_median, c.ratio,
               c.change_pct, c.p_value, c.q_value, c.cv_pct, c.detectable_pct, c.min_effect_pct, c.verdict, c.kind,
               c.note, getattr(c, "ci_low_pct", None), getattr(c, "ci_high_pct", None)]
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def to_json(outcome: Outcome, summary: dict) -> str:
    return json.dumps({**summary, "counts": outcome.counts(),
                       "regressed": ["/".join(c.key) for c in outcome.regressed]}, indent=2) + "\n"
