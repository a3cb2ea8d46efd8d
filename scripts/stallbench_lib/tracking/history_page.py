"""history.md and index.html: the regressions found across runs (with the commit range each falls
in) and, per cell, one trend plot per tracked metric, in the manner of asv: every repetition as a
dot, the run's median as a line, each segment's median as a step, change points as vertical lines
(red: a regression, green: an improvement, grey: a change under the minimum effect)."""
from collections import defaultdict
from pathlib import Path

import markdown

from ..atomic import atomic_write
from ..medians import median
from ..report import figures, stats, table
from ..report.render import HTML_PAGE
from ..rundir import slug
from .samples import describe_machine
from .series import Series, commit_range

REGRESSION, IMPROVEMENT, SMALL = "#d62728", "#2ca02c", "#7f7f7f"


def regressions(series: list[Series]) -> list[tuple[Series, object]]:
    found = [(s, cp) for s in series for cp in s.change_points if s.is_regression(cp)]
    return sorted(found, key=lambda sc: -abs(sc[1].change_pct or 0))


REGRESSION_COLUMNS = ["benchmark", "params", "metric", *map(table.number, ("before", "after", "change", "p")),
                      "first run after", "commit range"]
STEADY_COLUMNS = ["benchmark", "params", "metric", *map(table.number, ("nights", "last median", "median of the nights"))]


def regressions_table(series: list[Series]) -> str:
    rows = []
    for s, cp in regressions(series):
        before, after = s.points[cp.index - 1].run, s.points[cp.index].run
        rows.append([f"{s.key[0]}/{s.key[1]}", f"`{s.key[2]}`", f"{s.key[3]} ({s.unit})", f"{cp.before:.4g}",
                     f"{cp.after:.4g}", f"{cp.change_pct:+.1f}%", f"{cp.p_value:.3f}", after.run_id,
                     commit_range(before, after)])
    return table.markdown(REGRESSION_COLUMNS, rows, empty="no regression found")


def _colour(s: Series, cp) -> str:
    return REGRESSION if s.is_regression(cp) else IMPROVEMENT if s.is_improvement(cp) else SMALL


def _plot_cell(cell: tuple, metrics: list[Series], out: Path) -> str:
    fig, axes = figures.figure(len(metrics), 1, figsize=(9, 2.3 * len(metrics)), squeeze=False, sharex=True)
    for ax, s in zip(axes[:, 0], metrics):
        # One artist for every repetition of every run: an artist per run made a year's page take minutes.
        xs = [x for x, point in enumerate(s.points) for _ in point.values]
        ax.plot(xs, [v for point in s.points for v in point.values], ".", color="#9ecae1", markersize=3)
        ax.plot(range(len(s.points)), [p.median for p in s.points], "-o", color="#1f77b4", markersize=3,
                linewidth=1, label="median")
        bounds = [0] + [cp.index for cp in s.change_points] + [len(s.points)]
        for start, end in zip(bounds, bounds[1:]):
            level = stats.median([p.median for p in s.points[start:end]])  # the table's median too
            ax.hlines(level, start - 0.3, end - 0.7, colors="#ff7f0e", linewidth=2)
        for cp in s.change_points:
            ax.axvline(cp.index - 0.5, color=_colour(s, cp), linestyle="--", linewidth=1.2)
        ax.set_ylabel(f"{s.key[3]}\n({s.unit}, {s.better} is better)", fontsize=8)
        ax.grid(alpha=0.3)
    points = metrics[0].points
    step = max(1, len(points) // 12)
    ax = axes[-1, 0]
    ax.set_xticks(range(0, len(points), step))
    ax.set_xticklabels([(p.run.meta.get("git", {}).get("short") or p.run.run_id[:15]) for p in points[::step]],
                       rotation=45, ha="right", fontsize=7)
    ax.set_xlabel("run (commit), oldest first")
    axes[0, 0].set_title(f"{cell[0]}/{cell[1]}  {cell[2]}", fontsize=9)
    stem = slug(f"trend-{cell[0]}-{cell[1]}-{cell[2]}")
    return figures.save(fig, out, stem, f"trends of {cell[0]}/{cell[1]} {cell[2]}")


def _steady_table(cells: list[tuple], by_cell: dict) -> str:
    return table.markdown(STEADY_COLUMNS, [
        [f"{cell[0]}/{cell[1]}", f"`{cell[2]}`", f"{s.key[3]} ({s.unit})", len(s.points), f"{s.points[-1].median:.4g}",
         f"{median(p.median for p in s.points):.4g}"] for cell in cells for s in by_cell[cell]])


def write(series: list[Series], runs: list, fingerprint: str, alpha: float, out: Path, plot_all: bool = False) -> str:
    """Writes history.md, index.html and the plots into `out`; returns the Markdown. Cells with a
    change point get their trend plot; the steady ones are a table unless `plot_all` (a year of
    several hundred series is minutes of plotting, and a page of flat lines hides the few that
    moved)."""
    out.mkdir(parents=True, exist_ok=True)
    found = regressions(series)
    parts = [
        f"# stallbench history: machine {fingerprint}", "",
        f"{len(runs)} runs on {describe_machine(runs[-1].meta)}, from {runs[0].run_id} to {runs[-1].run_id}; "
        f"{len(series)} series (cell × tracked metric), {sum(len(s.change_points) for s in series)} change points, "
        f"**{len(found)} regressions**.", "",
        "Each point of a series is one run's median. Change points: E-divisive means with a permutation test "
        f"(alpha {alpha:g}); a change point is a regression when the segment medians on either side differ by at "
        "least the metric's minimum effect in the worse direction. The commit range is the last run before the "
        "change to the first run after it.", "",
        "## Regressions", "", regressions_table(series), "## Trends", "",
        "Every cell with a change point, a panel per tracked metric.", ""]
    by_cell = defaultdict(list)
    for s in series:
        by_cell[s.key[:3]].append(s)
    moved = [cell for cell, metrics in sorted(by_cell.items()) if plot_all or any(s.change_points for s in metrics)]
    for cell in moved:
        parts.append(f"### {cell[0]}/{cell[1]} `{cell[2]}`\n")
        parts.append(_plot_cell(cell, by_cell[cell], out))
    steady = [cell for cell in sorted(by_cell) if cell not in moved]
    if steady:
        parts += ["## Steady series", "", f"No change point in these {sum(len(by_cell[c]) for c in steady)} series "
                  "(`history --plots all` draws them too):", "", _steady_table(steady, by_cell)]
    text = "\n".join(parts)
    atomic_write(out / "history.md", text)
    body = markdown.markdown(text, extensions=["tables", "fenced_code"])
    atomic_write(out / "index.html", HTML_PAGE.format(title=f"stallbench history {fingerprint}", body=body))
    return text
