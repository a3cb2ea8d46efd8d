"""history.md and index.html: the regressions found across runs (with the commit range each falls
in), the changes accepted as intended, the outliers, and, per cell, one trend plot per tracked
metric, in the manner of asv: every repetition as a dot, the run's median as a line, each segment's
median as a step, change points as vertical lines (red: a regression, green: an improvement, grey: a
change under the minimum effect, purple dotted: accepted), outliers as black crosses. With several
machines, each panel has one trace per machine, in the machine's colour, on a common axis of runs
ordered by start."""
import html
from collections import defaultdict
from pathlib import Path

import markdown

from ..atomic import atomic_write
from ..medians import median
from ..rendering import figures, stats, table
from ..rendering.render import HTML_PAGE
from ..rundir import slug
from .samples import describe_machine
from .series import Series, commit_range

REGRESSION, IMPROVEMENT, SMALL, ACCEPTED = "#d62728", "#2ca02c", "#7f7f7f", "#9467bd"
ONE_MACHINE_DOTS, LEVEL, OUTLIER = "#9ecae1", "#ff7f0e", "black"


def regressions(series: list[Series]) -> list[tuple[Series, object]]:
    """The regressions that alert: every one not accepted, largest change first."""
    found = [(s, cp) for s in series for cp in s.change_points if s.alerts(cp)]
    return sorted(found, key=lambda sc: -abs(sc[1].change_pct or 0))


def accepted_changes(series: list[Series]) -> list[tuple[Series, object]]:
    return [(s, cp) for s in series for cp in s.change_points if cp.index in s.accepted]


def _machines(series: list[Series]) -> list[str]:
    return sorted({s.machine or "" for s in series})


def _machine_column(series: list[Series]) -> list[str]:
    """The machine column, for a history of several machines only."""
    return ["machine"] if len(_machines(series)) > 1 else []


def _lead(s: Series, series: list[Series]) -> list[str]:
    machine = [s.machine] if _machine_column(series) else []
    return [*machine, f"{s.key[0]}/{s.key[1]}", f"`{s.key[2]}`", f"{s.key[3]} ({s.unit})"]


CELL_COLUMNS = ["benchmark", "params", "metric"]
CHANGE_COLUMNS = [*map(table.number, ("before", "after", "change", "p")), "first run after", "commit range"]
STEADY_COLUMNS = [*map(table.number, ("nights", "last median", "median of the nights"))]


def _change(s: Series, cp) -> list:
    before, after = s.around(cp)
    return [f"{cp.before:.4g}", f"{cp.after:.4g}", f"{cp.change_pct:+.1f}%", f"{cp.p_value:.3f}", after.run_id,
            commit_range(before, after)]


def regressions_table(series: list[Series]) -> str:
    return table.markdown([*_machine_column(series), *CELL_COLUMNS, *CHANGE_COLUMNS],
                          [[*_lead(s, series), *_change(s, cp)] for s, cp in regressions(series)],
                          empty="no regression found")


def accepted_table(series: list[Series]) -> str:
    return table.markdown([*_machine_column(series), *CELL_COLUMNS, *CHANGE_COLUMNS, "accepted", "reason"],
                          [[*_lead(s, series), *_change(s, cp), f"`{s.accepted[cp.index].revisions}`",
                            html.escape(s.accepted[cp.index].reason, quote=False)]
                           for s, cp in accepted_changes(series)])


def outliers_table(series: list[Series]) -> str:
    rows = []
    for s in series:
        for o in s.outliers:
            run = s.points[o.index].run
            rows.append([*_lead(s, series), run.run_id, (run.meta.get("git") or {}).get("short") or "unknown",
                         f"{o.value:.4g}", f"{o.expected:.4g}",
                         "–" if o.change_pct is None else f"{o.change_pct:+.1f}%"])
    return table.markdown([*_machine_column(series), *CELL_COLUMNS, "run", "commit",
                           *map(table.number, ("median", "runs around it", "off by"))], rows)


def triage_text(series: list[Series]) -> str:
    """What `history` prints: the regressions, then (when there are any) the accepted changes and
    the outliers."""
    parts = [regressions_table(series)]
    if accepted_changes(series):
        parts += ["Accepted as intended (not regressions):", "", accepted_table(series)]
    if any(s.outliers for s in series):
        parts += ["Outliers (runs off the level around them for fewer than the minimum segment; not change points):",
                  "", outliers_table(series)]
    return "\n".join(parts)


def _colour(s: Series, cp) -> str:
    if cp.index in s.accepted:
        return ACCEPTED
    return REGRESSION if s.is_regression(cp) else IMPROVEMENT if s.is_improvement(cp) else SMALL


def _draw(ax, s: Series, xs: list[int], colour: str, many: bool) -> None:
    """One machine's series in one panel, at the runs' places `xs` on the common axis."""
    # One artist for every repetition of every run: an artist per run made a year's page take minutes.
    ax.plot([x for x, point in zip(xs, s.points) for _ in point.values],
            [v for point in s.points for v in point.values], ".",
            color=colour if many else ONE_MACHINE_DOTS, alpha=0.35 if many else 1.0, markersize=3)
    ax.plot(xs, [p.median for p in s.points], "-o", color=colour, markersize=3, linewidth=1,
            label=s.machine if many else "median")
    left_out = {o.index for o in s.outliers}
    bounds = [0] + [cp.index for cp in s.change_points] + [len(s.points)]
    for start, end in zip(bounds, bounds[1:]):
        kept = [s.points[i].median for i in range(start, end) if i not in left_out]
        level = stats.median(kept)  # the table's median too
        if level is not None:
            ax.hlines(level, xs[start] - 0.3, xs[end - 1] + 0.3, colors=colour if many else LEVEL, linewidth=2)
    for cp in s.change_points:
        accepted = cp.index in s.accepted
        ax.axvline((xs[cp.index - 1] + xs[cp.index]) / 2, color=_colour(s, cp), linestyle=":" if accepted else "--",
                   linewidth=1.2)
    if s.outliers:
        ax.plot([xs[o.index] for o in s.outliers], [o.value for o in s.outliers], "x", color=OUTLIER, markersize=7)


def _plot_cell(cell: tuple, cell_series: list[Series], places: dict[str, int], out: Path) -> str:
    by_metric = defaultdict(list)
    for s in cell_series:
        by_metric[s.key[3]].append(s)
    colours = figures.colours_for(_machines(cell_series))
    many = len(colours) > 1
    fig, axes = figures.figure(len(by_metric), 1, figsize=(9, 2.3 * len(by_metric)), squeeze=False, sharex=True)
    for ax, metric_series in zip(axes[:, 0], by_metric.values()):
        for s in metric_series:
            _draw(ax, s, [places[p.run.run_id] for p in s.points], colours[s.machine or ""], many)
        first = metric_series[0]
        ax.set_ylabel(f"{first.key[3]}\n({first.unit}, {first.better} is better)", fontsize=8)
        ax.grid(alpha=0.3)
    runs = sorted({p.run.run_id: p.run for s in cell_series for p in s.points}.values(),
                  key=lambda run: places[run.run_id])
    step = max(1, len(runs) // 12)
    ax = axes[-1, 0]
    ax.set_xticks([places[run.run_id] for run in runs[::step]])
    ax.set_xticklabels([(run.meta.get("git", {}).get("short") or run.run_id[:15]) for run in runs[::step]],
                       rotation=45, ha="right", fontsize=7)
    ax.set_xlabel("run (commit), oldest first" + (", every machine's on one axis" if many else ""))
    axes[0, 0].set_title(f"{cell[0]}/{cell[1]}  {cell[2]}", fontsize=9)
    if many:
        fig.tight_layout()
        figures.shared_legend(fig)
    stem = slug(f"trend-{cell[0]}-{cell[1]}-{cell[2]}")
    return figures.save(fig, out, stem, f"trends of {cell[0]}/{cell[1]} {cell[2]}")


def _steady_table(cells: list[tuple], by_cell: dict, series: list[Series]) -> str:
    return table.markdown([*_machine_column(series), *CELL_COLUMNS, *STEADY_COLUMNS], [
        [*_lead(s, series), len(s.points), f"{s.points[-1].median:.4g}", f"{median(p.median for p in s.points):.4g}"]
        for cell in cells for s in by_cell[cell]])


def _machines_line(runs: list) -> str:
    by_machine = defaultdict(list)
    for run in runs:
        by_machine[run.fingerprint].append(run)
    return "; ".join(f"{len(mine)} runs on {describe_machine(mine[-1].meta)}, from {mine[0].run_id} to "
                     f"{mine[-1].run_id}" for _, mine in sorted(by_machine.items(), key=lambda item: item[0] or ""))


def write(series: list[Series], runs: list, name: str, alpha: float, min_segment: int, out: Path,
          plot_all: bool = False) -> str:
    """Writes history.md, index.html and the plots into `out`; returns the Markdown. `runs`: every
    run read, of every machine shown, oldest first (the plots' common axis); `name`: the machine,
    or what the machines shown are called. Cells with a change point or an outlier get their trend
    plot; the steady ones are a table unless `plot_all` (a year of several hundred series is minutes
    of plotting, and a page of flat lines hides the few that moved)."""
    out.mkdir(parents=True, exist_ok=True)
    found, accepted = regressions(series), accepted_changes(series)
    outlier_count = sum(len(s.outliers) for s in series)
    parts = [
        f"# stallbench history: {name}", "",
        f"{_machines_line(runs)}; {len(series)} series (machine × cell × tracked metric), "
        f"{sum(len(s.change_points) for s in series)} change points, **{len(found)} regressions**"
        + (f" ({len(accepted)} changes accepted as intended)" if accepted else "") + f", {outlier_count} outliers.", "",
        "Each point of a series is one run's median. Change points: E-divisive means with a permutation test "
        f"(alpha {alpha:g}), segments of at least {min_segment} runs; a change point is a regression when the "
        "segment medians on either side differ by at least the metric's minimum effect in the worse direction, "
        "unless its commits are in a range accepted with `history --accept`. The commit range is the last run "
        "before the change to the first run after it. An outlier is a run off the level around it for fewer than "
        f"{min_segment} runs (a spike), left out of the search.", "",
        "## Regressions", "", regressions_table(series)]
    if accepted:
        parts += ["## Accepted as intended", "", "Change points whose commits are in an accepted range: not "
                  "regressions, shown with the reason given.", "", accepted_table(series)]
    if outlier_count:
        parts += ["## Outliers", "", outliers_table(series)]
    parts += ["## Trends", "", "Every cell with a change point or an outlier, a panel per tracked metric"
              + (", a trace per machine." if _machine_column(series) else "."), ""]
    by_cell = defaultdict(list)
    for s in series:
        by_cell[s.key[:3]].append(s)
    places = {run.run_id: i for i, run in enumerate(runs)}
    moved = [cell for cell, cell_series in sorted(by_cell.items())
             if plot_all or any(s.change_points or s.outliers for s in cell_series)]
    for cell in moved:
        parts.append(f"### {cell[0]}/{cell[1]} `{cell[2]}`\n")
        parts.append(_plot_cell(cell, by_cell[cell], places, out))
    steady = [cell for cell in sorted(by_cell) if cell not in moved]
    if steady:
        count = sum(len(by_cell[c]) for c in steady)
        parts += ["## Steady series", "", f"No change point nor outlier in these {count} series (`history --plots all` "
                  "draws them too):", "", _steady_table(steady, by_cell, series)]
    text = "\n".join(parts)
    atomic_write(out / "history.md", text)
    body = markdown.markdown(text, extensions=["tables", "fenced_code"])
    atomic_write(out / "index.html", HTML_PAGE.format(title=f"stallbench history {name}", body=body))
    return text
