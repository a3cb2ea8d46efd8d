"""The pull-request job's comment, from its folder: which families the diff reached and why
(affected.json), what `ab` found (ab/ab.json: counts, the geometric mean per family; ab/ab.csv: the
metrics that regressed or improved, with their intervals), and where the run and its artifact are."""
import csv
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from ..instructions import INSTRUCTIONS
from ..rendering import table
from . import ab_report, geomean, power, verdict_table
from .sticky_comment import marker
from ..documents import json_loads

CHANGED = ("regressed", "improved")
MAX_METRIC_ROWS = 25   # a pull request's page stays readable; ab.md in the artifact has them all
MAX_PATH_ROWS = 30
METRIC_COLUMNS = ["verdict", "benchmark", "params", "metric", "base", "current", "change", "interval", "q", "rounds",
                  "note"]
NUMBERS = {"base_median", "current_median", "ratio", "change_pct", "p_value", "q_value", "cv_pct", "detectable_pct",
           "min_effect_pct", "ci_low_pct", "ci_high_pct"}


@dataclass(frozen=True)
class Links:
    run: str | None       # the workflow run's page
    artifact: str | None  # the uploaded job folder


def _row(fields: dict) -> SimpleNamespace:
    """An ab.csv row with the attributes the verdict table reads (tracking/verdict_table.py)."""
    values = {k: (float(v) if v else None) if k in NUMBERS else v for k, v in fields.items()}
    values["base_n"], values["current_n"] = int(fields["base_n"] or 0), int(fields["current_n"] or 0)
    values["key"] = (fields["family"], fields["benchmark"], fields["params"], fields["metric"])
    return SimpleNamespace(**values)


def read_rows(ab_csv: Path) -> list[SimpleNamespace]:
    """ab.csv's rows, in ab's order (worst first)."""
    with open(ab_csv, newline="") as f:
        return [_row(r) for r in csv.DictReader(f)]


def _paths_table(scope: dict) -> list[str]:
    paths = scope["paths"]
    rows = [[f"`{p}`", ", ".join(d["families"]) or "none", d["why"]] for p, d in list(paths.items())[:MAX_PATH_ROWS]]
    more = len(paths) - MAX_PATH_ROWS
    return ([f"<details><summary>Why these families ({len(paths)} changed {'file' if len(paths) == 1 else 'files'})</summary>", "",
             table.markdown(["file", "measured", "why"], rows).rstrip()]
            + ([f"", f"… and {more} more files (affected.json in the artifact)"] if more > 0 else []) + ["", "</details>"])


def _links(links: Links) -> list[str]:
    said = [f"[the run]({links.run})" if links.run else None,
            f"[the artifact]({links.artifact}) (both sides' runs, ab.md, ab.csv, ab.json)" if links.artifact else None]
    said = [s for s in said if s]
    return [f"Details: {' and '.join(said)}."] if said else []


def _geomeans(ab: dict) -> list[str]:
    """The geometric mean that gates beside the wall-time one: with --instructions-gate the counted
    cells are judged on their instruction counts, so that line comes first and says so."""
    wall, counts = (geomean.from_json(ab.get(k) or {}) for k in ("geomean", "geomean_instructions"))
    gate = "gates the counted cells" if ab.get("instructions_gate") else "beside wall time"
    rows = ([(f"instruction counts ({gate})", counts[geomean.OVERALL])] if counts else []) + \
           ([("wall time" + (", the other cells' gate" if counts and ab.get("instructions_gate") else ""),
              wall[geomean.OVERALL])] if wall else [])
    if not rows:
        return []
    lines = ["Geometric mean of CURRENT/BASE over the tracked metrics, oriented so that above 1 is worse "
             "(for a higher-is-better metric BASE/CURRENT):", "", geomean.rows_markdown(rows).rstrip(), ""]
    if wall and len(wall["families"]) > 1:
        lines += ["Wall time by family:", "", geomean.table_markdown(wall, "all measured").rstrip(), ""]
    return lines


def _verdicts(ab: dict, rows: list) -> list[str]:
    counts = ab.get("counts", {})
    lines = [f"**{counts.get('regressed', 0)} regressed**, {counts.get('improved', 0)} improved, "
             f"{counts.get('unchanged', 0)} unchanged, {counts.get('noisy', 0)} noisy; exit {ab['exit']}. "
             f"{ab['pairs']} cells, {ab['rounds']} rounds at most; {ab_report.time_sentence(ab)}"
             f"{' — the budget ended the rounds' if ab.get('budget_spent') else ''}.", ""]
    lines += _geomeans(ab)
    counted = sum(1 for r in rows if r.metric == INSTRUCTIONS)
    lines += [f"Instruction counts: {counted} {'cell' if counted == 1 else 'cells'}, judged beside their wall time." if counted else
              "No measured cell is CPU-bound (none declares instruction counting): wall time only.", ""]
    rows = [r for r in rows if r.verdict in CHANGED]
    if rows:
        shown = rows[:MAX_METRIC_ROWS]
        lines += [f"**What changed** ({len(rows)} metrics regressed or improved"
                  f"{f'; the first {MAX_METRIC_ROWS} here, all in ab.md' if len(rows) > len(shown) else ''}):", "",
                  verdict_table.markdown(shown, METRIC_COLUMNS, 2).rstrip(), ""]
    else:
        lines += ["No metric regressed or improved.", ""]
    return lines


def headline(scope: dict, ab: dict | None, ab_exit: int | None) -> str:
    """The comment's first line: the verdict, which the exit code of the job carries too."""
    if not scope["families"]:
        return "## stallbench: nothing to measure — no benchmark reads what this pull request changes"
    if ab is None:
        return f"## stallbench: `ab` could not judge (exit {ab_exit if ab_exit is not None else 'unknown'})"
    if ab.get("verdict") == power.INCONCLUSIVE:
        return f"## stallbench: {power.sentence(ab['inconclusive'])}"
    if ab.get("verdict") == "regressed" or (ab.get("verdict") is None and ab["exit"] == 1):
        n = len(ab.get("gating", []))
        return f"## stallbench: regressed — {n} gated {'metric' if n == 1 else 'metrics'}"
    return "## stallbench: passed — nothing gated regressed, and every gated metric could see its minimum effect"


def render(job: Path, links: Links, ab_exit: int | None, run: str = "") -> str:
    """The comment for the job folder `job` (affected.json, ab/). `ab_exit`: ab's exit code as the
    job recorded it (None: ab did not run). `run`: the job's id, in the hidden marker, so an older
    run never overwrites a newer run's comment (sticky_comment)."""
    scope = json_loads((job / "affected.json").read_text())
    summary = job / "ab" / "ab.json"
    ab = json_loads(summary.read_text()) if scope["families"] and summary.exists() else None
    head = [headline(scope, ab, ab_exit), "",
            f"BASE `{scope['base'][:8]}` (where this branch left its base) → HEAD `{scope['head'][:8]}`, "
            "measured by `stallbench ab --instructions --instructions-gate` in paired rounds (CPU-bound cells gated "
            "on their instruction counts, the others on wall time).", ""]
    if not scope["families"]:
        body = ["**No benchmark is affected**: nothing this pull request changes is read by a benchmark "
                "(documentation, tests, CI, or code no bench binary is built from), so nothing was measured.", ""]
    else:
        measured = "every family" if scope["everything"] else ", ".join(scope["families"])
        body = [f"Measured: **{measured}**.", ""]
        if scope.get("minutes", 0) >= 0.05:  # the map read HEAD's build: its making is the job's time too
            body += [f"Before `ab`, mapping the changed paths to families took {scope['minutes']:.1f} minutes "
                     "(HEAD's build included, which `ab` then used).", ""]
        if ab is not None:
            body += _verdicts(ab, read_rows(job / "ab" / "ab.csv"))
        else:
            body += [f"**`ab` could not judge** (exit {ab_exit if ab_exit is not None else 'unknown'}; "
                     "no ab.json): the run's log says why (a failed build, no cell in common).", ""]
    return "\n".join(head + body + _paths_table(scope) + [""] + _links(links) + ["", marker(run)]) + "\n"
