"""The report of one run: reports/<run-id>/report.md and index.html, plots as PNG and SVG.

A family's pictures and prose come from families/<family>.py (`sections(context)`), found by
name; every family also gets the generic table of medians, so a new family is reported before it
has plots of its own."""
import html
import importlib
from dataclasses import dataclass
from pathlib import Path

import markdown

from .. import paths, rundir
from ..atomic import atomic_write
from ..tidy import Row
from . import stats


@dataclass
class Context:
    run: rundir.RunDir
    rows: list[Row]   # this family's rows
    out: Path         # the report directory, where figures go

    @property
    def cores(self) -> int | None:
        return self.run.meta.get("machine", {}).get("cores")


def _header(run: rundir.RunDir) -> str:
    m = run.meta
    machine = m.get("machine", {})
    git = m.get("git", {})
    state = "complete" if m.get("complete") else f"**incomplete** ({m.get('interrupted', 'stopped before the end')})"
    cells = m.get("cells", {})
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.get("versions", {}).items()))
    lines = [
        f"# stallbench report: {run.run_id}",
        "",
        f"- Run: {state}; profile `{m.get('profile')}`, {m.get('repetitions')} repetitions per cell; "
        f"{cells.get('ok', '?')} cells ok, {cells.get('findings', 0)} findings (a status the benchmark "
        f"measures, such as a regex engine's guard), {cells.get('failed', '?')} failed; "
        f"{m.get('started_at')} to {m.get('ended_at')}.",
        f"- Machine: {machine.get('cpu_model')}, **{machine.get('cores')} cores** available "
        f"({machine.get('logical_cpus')} logical), {machine.get('memory_gib')} GiB, {machine.get('os')}, "
        f"kernel {machine.get('kernel')}; load average at start "
        f"{', '.join(f'{x:.2f}' for x in machine.get('load_average_start', []))}; fingerprint `{machine.get('fingerprint')}`.",
        f"- Code: commit `{git.get('short')}`{' (with uncommitted changes)' if git.get('dirty') else ''}, "
        f"{m.get('build_type')} build. Versions: {versions}.",
        "",
        "Times are medians over the repetitions; ranges are min–max. The machine may be shared and "
        "noisy: compare figures measured side by side in one run, as ratios, rather than absolute times "
        "across runs.",
        "",
    ]
    return "\n".join(lines)


def _generic_table(rows: list[Row]) -> str:
    lines = ["| benchmark | params | metric | median | min – max | n | status |", "|---|---|---|---|---|---|---|"]
    cells: dict[tuple, list[Row]] = {}
    for r in rows:
        cells.setdefault((r.benchmark, r.params, r.metric), []).append(r)
    for (benchmark, params, metric), cell in cells.items():
        ok = [r.value for r in cell if r.status == "ok"]
        failed = sorted({f"{r.status}: {r.detail}" for r in cell if r.status != "ok"})
        unit = cell[0].unit
        span = f"{stats.fmt(min(ok), 2)} – {stats.fmt(max(ok), 2)}" if ok else "–"
        lines.append(f"| {benchmark} | `{params}` | {metric} ({unit}) | {stats.fmt(stats.median(ok), 2)} | {span} | "
                     f"{len(ok)} | {html.escape('; '.join(failed)) or 'ok'} |")
    return "\n".join(lines) + "\n"


def _family_sections(context: Context, family: str) -> str:
    try:
        module = importlib.import_module(f"stallbench_lib.families.{family.replace('-', '_')}")
    except ModuleNotFoundError:
        return ""
    return module.sections(context)


HTML_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 75rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }}
table {{ border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
img {{ max-width: 100%; }}
code {{ background: #f4f4f4; padding: 0 0.2rem; }}
</style></head><body>
{body}
</body></html>
"""


def render(run_path: Path, out: Path | None = None) -> Path:
    run = rundir.load(run_path)
    out = out or paths.report_dir_for(run.path)
    out.mkdir(parents=True, exist_ok=True)
    parts = [_header(run)]
    families = list(dict.fromkeys(r.family for r in run.rows))
    if not families:
        parts.append("No results were recorded.\n")
    for family in families:
        rows = [r for r in run.rows if r.family == family]
        parts.append(f"## Family `{family}`\n")
        parts.append(_family_sections(Context(run, rows, out), family))
        parts.append(f"### Every measured value (`{family}`)\n")
        parts.append(_generic_table(rows))
    text = "\n".join(parts)
    atomic_write(out / "report.md", text)
    body = markdown.markdown(text, extensions=["tables", "fenced_code"])
    atomic_write(out / "index.html", HTML_PAGE.format(title=f"stallbench {run.run_id}", body=body))
    return out
