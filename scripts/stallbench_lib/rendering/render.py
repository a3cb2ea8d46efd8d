"""The report of one run: reports/<run-id>/report.md and index.html, plots as PNG and SVG.

A family's pictures and prose come from families/<family>/section.py (`sections(context)`), found
by the family's name (families.find). The module declares what it reads, `CONSUMES = {benchmark: (metric, ...)}` and
`PARAMETERS = {benchmark: (parameter, ...)}`, and the render checks both against the declarations
the run's binaries recorded in meta.json: a benchmark, metric or parameter renamed in C++ stops the
report with one line naming it, rather than leaving a section silently empty or a KeyError
(tests/python/test_report_render.py holds every parameter a module reads by name to PARAMETERS). What else a section needs from the C++ side (a budget, the engine list) it reads
from the same declarations (`Context.constant`, `Context.choices`).

Every family's medians per cell and metric also go to values-<family>.csv, linked from its
section, so the page stays readable; a family with no module of its own gets that table inline
(collapsed), so a new family is reported before it has plots of its own."""
import csv
import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

import markdown

from .. import families, paths, rundir, runtimes
from ..atomic import atomic_write
from ..errors import ReportError
from ..tidy import Row
from . import side_by_side, stats, table
from .markup import collapsed


@dataclass
class Context:
    run: rundir.RunDir
    rows: list[Row]   # this family's rows
    out: Path         # the report directory, where figures go
    family: str = ""

    @property
    def cores(self) -> int | None:
        return self.run.meta.get("machine", {}).get("cores")

    def _declared(self, benchmark: str) -> dict:
        return self.run.meta.get("benchmarks", {}).get(f"{self.family}/{benchmark}", {})

    def constant(self, benchmark: str, name: str) -> float:
        """A number the benchmark declared for its report (a budget): ReportError when the run's
        meta.json does not have it."""
        value = self._declared(benchmark).get("constants", {}).get(name)
        if value is None:
            raise ReportError(f"report: meta.json does not declare constant {name} of {self.family}/{benchmark} "
                              "(a run made before benchmarks recorded their constants, or the benchmark dropped it)")
        return value

    def table(self, name: str) -> list[dict]:
        """The rows of a table the family declared (the regex family's engines), as the run's
        binaries declared it; [] for a run made before families declared tables."""
        return self.run.meta.get("tables", {}).get(f"{self.family}/{name}", [])

    def choices(self, benchmark: str, param: str) -> list[str]:
        """The declared choices of a parameter (the engines, in the bench's order), with each Node
        value expanded to the run's lines (node -> node@26, node@system); [] when not declared."""
        declared = self._declared(benchmark).get("params", {}).get(param, {})
        lines = [n.get("line") for n in self.run.meta.get("nodes") or []]
        expanded = []
        for choice in declared.get("choices", []):
            expanded += [runtimes.of_line(line, choice) for line in lines] if choice in declared.get("node_values", []) else [choice]
        return expanded


def _what_ran(m: dict) -> str:
    """A profile's run says its profile and repetitions; a command without profiles (doctor, probe-cost,
    sweep-pool --app) says which command it was."""
    if m.get("profile"):
        return f"profile `{m['profile']}`, {m.get('repetitions')} repetitions per cell"
    return f"`{' '.join(m.get('command_line') or ['scripts/stallbench', m.get('command', '')])}`"


def _header(run: rundir.RunDir) -> str:
    m = run.meta
    machine = m.get("machine", {})
    git = m.get("git", {})
    why = m.get("incomplete_because") or m.get("interrupted", "stopped before the end")
    state = "complete" if m.get("complete") else f"**incomplete** ({why})"
    cells = m.get("cells", {})
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.get("versions", {}).items()))
    lines = [
        f"# stallbench report: {run.run_id}",
        "",
        f"- Run: {state}; {_what_ran(m)}; "
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
    return "\n".join(lines + _group_lines(m))


def _group_lines(m: dict) -> list[str]:
    """A run merged from shards (group_merge.py): which machine measured which cells, and which
    shard is missing or unfinished."""
    group = m.get("group")
    if not group:
        return []
    present = {s["index"]: s for s in group.get("shards", [])}
    rows = []
    for k in range(1, group.get("count", 0) + 1):
        s = present.get(k)
        if s is None:
            rows.append([f"{k}/{group['count']}", "**missing**", "", "", ""])
            continue
        machine = s.get("machine") or {}
        rows.append([f"{k}/{group['count']}", s.get("run_id"), f"{machine.get('hostname')} (`{machine.get('fingerprint')}`)",
                     s.get("cells"), ", ".join(s.get("units") or []) if s.get("complete") else "**unfinished**"])
    return [f"Merged from the {group.get('count')} shards of group `{group.get('id')}`, measured on "
            f"{group.get('machines')} machine(s); each shard's cells ran on its machine alone.", "",
            table.markdown(["shard", "run", "machine", "cells", "what it measured"], rows), ""]


@dataclass
class _Summary:
    benchmark: str
    params: str
    metric: str
    unit: str
    ok: list[float]
    failures: list[str]

    @property
    def status(self) -> str:
        return "; ".join(self.failures) or "ok"


def _summaries(rows: list[Row]) -> list[_Summary]:
    cells: dict[tuple, _Summary] = {}
    for r in rows:
        s = cells.setdefault((r.benchmark, r.params, r.metric), _Summary(r.benchmark, r.params, r.metric, r.unit, [], []))
        if r.status == "ok":
            s.ok.append(r.value)
        elif (failure := f"{r.status}: {r.detail}") not in s.failures:
            s.failures.append(failure)
    return list(cells.values())


def _values_csv(rows: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["benchmark", "params", "metric", "unit", "median", "min", "max", "n", "status"])
    for s in _summaries(rows):
        writer.writerow([s.benchmark, s.params, s.metric, s.unit, stats.median(s.ok) if s.ok else "",
                         min(s.ok) if s.ok else "", max(s.ok) if s.ok else "", len(s.ok), s.status])
    return out.getvalue()


GENERIC_COLUMNS = ["benchmark", "params", "metric", table.number("median"), table.number("min – max"), table.number("n"),
                   "status"]


def _generic_table(rows: list[Row]) -> str:
    return table.markdown(GENERIC_COLUMNS, [
        [s.benchmark, f"`{s.params}`", f"{s.metric} ({s.unit})", stats.fmt(stats.median(s.ok), 2),
         f"{stats.fmt(min(s.ok), 2)} – {stats.fmt(max(s.ok), 2)}" if s.ok else None, len(s.ok), html.escape(s.status)]
        for s in _summaries(rows)])


def _family_sections(context: Context) -> str | None:
    """The family's own sections, or None when it has no module (the generic table stands in)."""
    where = families.module_name(context.family, "section").replace(".", "/") + ".py"
    try:
        module = families.find(context.family, "section")
    except Exception as e:  # a broken module must not read as a family without a report
        raise ReportError(f"report: {where} does not import: {type(e).__name__}: {e}") from e
    if module is None:
        return None
    check_consumed(where, getattr(module, "CONSUMES", None), context.family, context.run.meta,
                   getattr(module, "ADDED_LATER", ()), getattr(module, "PARAMETERS", {}))
    return module.sections(context)


def check_consumed(where: str, consumes: dict | None, family: str, meta: dict, added_later=(),
                   parameters: dict | None = None) -> None:
    """Every benchmark, metric and parameter a section reads must be declared in the run's meta.json,
    else one line naming the first that is not (a run whose meta.json predates parameter
    declarations has its parameters unchecked). A run whose binaries declared nothing of the family
    (made before its command's benchmark was declared in C++) has nothing to check against. A benchmark
    the family module names in `added_later` may be missing altogether: a run made before it existed
    has none, and its part of the section is left out (its metrics are checked when it is there)."""
    if consumes is None:
        raise ReportError(f"report: {where} does not declare what it reads (CONSUMES = {{benchmark: (metric, ...)}})")
    declared = meta.get("metrics", {})
    by_binaries = meta.get("benchmarks", declared)
    if not any(key.partition("/")[0] == family for key in by_binaries):
        return
    for benchmark, metrics in consumes.items():
        key = f"{family}/{benchmark}"
        if key not in declared and benchmark in added_later:
            continue
        if key not in declared:
            known = ", ".join(sorted(k for k in declared if k.partition("/")[0] == family))
            raise ReportError(f"report: {where} reads benchmark {key}, which this run's meta.json does not declare "
                              f"(it declares {known})")
        missing = [m for m in metrics if m not in declared[key]]
        if missing:
            raise ReportError(f"report: {where} reads metric {missing[0]} of {key}, which this run's meta.json "
                              "does not declare")
    for benchmark, names in (parameters or {}).items():
        params = (meta.get("benchmarks", {}).get(f"{family}/{benchmark}") or {}).get("params")
        missing = [n for n in names if params is not None and n not in params]
        if missing:
            raise ReportError(f"report: {where} reads parameter {missing[0]} of {family}/{benchmark}, which this run's "
                              f"meta.json does not declare (it declares {', '.join(sorted(params))})")


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


_UNITS = re.compile(r"\b(ms|µs|us|ns|s|MB/s|GB/s|MiB|KiB|GiB|B|x)\b")


def _is_number(text: str) -> bool:
    """'1,234.5', '2/2', '10.6 / 10.6', '0.5 – 1.2 ms', '×3.4', '12%': digits and separators only."""
    bare = _UNITS.sub("", text)
    return any(c.isdigit() for c in bare) and not any(c.isalpha() for c in bare)


def _align_numbers(page: str) -> str:
    """Numbers right-aligned, text left-aligned: cells of a column declared right-aligned
    (rendering/table.py's `number`), and cells elsewhere that hold a number, get class="num"."""
    def mark(match: re.Match) -> str:
        declared, inner = match.group(1), match.group(2)
        plain = re.sub(r"<[^>]+>", "", inner).strip()
        return f'<td class="num">{inner}</td>' if declared or _is_number(plain) else match.group(0)
    return re.sub(r'<td(?P<right> style="text-align: right;")?>(.*?)</td>', mark, page, flags=re.S)


HTML_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 75rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }}
table {{ border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
div.toc {{ background: #f8f8f8; border: 1px solid #ddd; padding: 0.5rem 1rem; }}
div.toc ul {{ margin: 0.2rem 0; }}
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
    # A family may have measured what is not rows of results.csv (the regex family's triage): it says
    # so in meta.json (`reported_families`) to get its section anyway.
    families = list(dict.fromkeys([r.family for r in run.rows] + run.meta.get("reported_families", [])))
    parts = [] if families else ["No results were recorded.\n"]
    rows_of = {family: [r for r in run.rows if r.family == family] for family in families}
    drawn = side_by_side.sections(families, lambda family: _family_sections(Context(run, rows_of[family], out, family)))
    for family, own in zip(families, drawn):
        rows = rows_of[family]
        values = f"values-{_anchor(family)}.csv"
        atomic_write(out / values, _values_csv(rows))
        parts.append(f"## Family `{family}`\n")
        if own is not None:
            parts.append(own)
            parts.append(f"Every measured value of `{family}` (median, range, n and status per cell and metric): "
                         f"[{values}]({values}).\n")
        else:
            parts.append(collapsed(f"Every measured value of {family}", f"Also as [{values}]({values}).\n\n" +
                                   _generic_table(rows)))
    body_md = "\n".join(parts)
    # Heading ids as GitHub and Python-Markdown both make them ("## Family `pool`" -> family-pool).
    contents = "Contents: " + " · ".join(f"[{f}](#family-{_anchor(f)})" for f in families) + "\n"
    atomic_write(out / "report.md", "\n".join([_header(run), contents if families else "", body_md]))
    extensions = ["tables", "fenced_code", "toc", "md_in_html"]
    config = {"toc": {"toc_depth": "2-3", "title": "Contents"}}
    body = markdown.markdown("\n".join([_header(run), "[TOC]\n" if families else "", body_md]),
                             extensions=extensions, extension_configs=config)
    atomic_write(out / "index.html", HTML_PAGE.format(title=f"stallbench {run.run_id}", body=_align_numbers(body)))
    return out


def announce(run_path: Path, no_report: bool) -> None:
    """The last lines of a command that wrote a run: where its results are, and its report, rendered
    unless `no_report`."""
    print(f"results: {run_path / 'results.csv'}")
    if not no_report:
        report = render(run_path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
