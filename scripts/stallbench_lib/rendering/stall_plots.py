"""Plots the stall families (json, report) share: a stall timeline per mode, with the work's window
marked, and the /health latency CDF per mode. Both read the timeline series every measured window
records (benches/session_metrics.cc)."""
import math

from ..medians import middle
from . import stats
from .figures import corner_legend, figure, save, shared_legend

# The series every measured window records (benches/session_metrics.cc) that the plots read.
TIMELINE_METRICS = ("work_start_ms", "work_end_ms", "stall_at_ms", "stall_ms", "delay_at_ms", "delay_ms",
                    "health_sent_ms", "health_latency_ms")

WORK_COLOUR = "#ffd8a8"
STALL_COLOUR = "#d62728"
DELAY_COLOUR = "#1f77b4"
HEALTH_COLOUR = "#2ca02c"

TIMELINE_READING = """\
In each panel the shaded band is the {work}: from the moment it started to the moment its answer
was back on the loop. Red bars are the **exact stall meter**'s stalls over 1 ms: each starts where
the loop stopped waiting for I/O and is as wide (and as tall) as the loop stayed busy. The blue
segments are the **delay monitor** (Node's `monitorEventLoopDelay` at resolution 10 ms): one per
timer firing, the gap since the previous firing drawn over the span it covers, at its height, so
an idle loop reads about 10 ms, not 0 — the resolution artefact, not a stall — and a stall shorter
than the resolution may not show at all.
Green crosses are **/health** requests, at the time they were sent, at the height of their latency:
a request sent during a stall waits for the rest of it. One repetition per panel (the one with the
median time).
"""

CDF_READING = """\
The CDF gives every /health latency of every repetition: how many requests (y) were answered
within a time (x, log scale). A mode that never blocks the loop stays left at a fraction of a
millisecond; a stall shows as a tail that reaches its length.
"""


def median_repetition(rows, params, metric):
    """The repetition whose `metric` is the median of the cell's (the lower one of an even count)."""
    by_rep = {rep: v[0] for rep, v in stats.per_repetition(rows, params, metric).items() if v}
    if not by_rep:
        return None
    return middle(by_rep, key=by_rep.get)


def _series(rows, params, rep, metric):
    return stats.per_repetition(rows, params, metric).get(rep, [])


def _timeline_panel(ax, rows, params, rep, title, work):
    start, end = _series(rows, params, rep, "work_start_ms"), _series(rows, params, rep, "work_end_ms")
    if start and end:
        ax.axvspan(start[0], max(end[0], start[0] + 0.5), color=WORK_COLOUR, alpha=0.7, lw=0, label=work)
    stall_at, stall = _series(rows, params, rep, "stall_at_ms"), _series(rows, params, rep, "stall_ms")
    if stall:
        ax.bar(stall_at, stall, width=stall, align="edge", color=STALL_COLOUR, alpha=0.45,
               label="stall (exact meter, ≥ 1 ms)")
    delay_at, delay = _series(rows, params, rep, "delay_at_ms"), _series(rows, params, rep, "delay_ms")
    # Each monitor sample is the gap that ended when the timer fired: drawn over the span it covers.
    ax.hlines(delay, [t - d for t, d in zip(delay_at, delay)], delay_at, color=DELAY_COLOUR, lw=1.5,
              label="loop delay (monitor, 10 ms): each gap over its span")
    ax.plot(delay_at, delay, ls="none", marker=".", ms=4, color=DELAY_COLOUR)
    sent, latency = _series(rows, params, rep, "health_sent_ms"), _series(rows, params, rep, "health_latency_ms")
    ax.scatter(sent, latency, marker="x", s=18, color=HEALTH_COLOUR, label="/health latency, at send time", zorder=3)
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=9, loc="left")
    ax.set_ylabel("ms")


def timeline_figure(context, panels, title, stem, work, time_metric):
    """panels: [(label, params)]; one panel each, the repetition with the median `time_metric`."""
    wanted = {params for _, params in panels}
    cell_rows = {params: [] for params in wanted}
    for r in context.rows:  # each panel reads about a dozen series: from its own rows, not all of them
        if r.params in wanted:
            cell_rows[r.params].append(r)
    chosen = [(label, params, median_repetition(cell_rows[params], params, time_metric)) for label, params in panels]
    chosen = [panel for panel in chosen if panel[2] is not None]
    if not chosen:
        return ""
    fig, axes = figure(len(chosen), 1, figsize=(9, 0.6 + 1.9 * len(chosen)), squeeze=False)
    for ax, (label, params, rep) in zip(axes[:, 0], chosen):
        _timeline_panel(ax, cell_rows[params], params, rep, label, work)
    axes[-1, 0].set_xlabel("time since the measured window began (ms)")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, stem, title)


def cdf_figure(context, groups, title, stem):
    """groups: [(label, [params, ...])]; one ECDF line each over every /health latency."""
    fig, ax = figure(1, 1, figsize=(7.5, 4))
    drawn = 0
    latency = stats.values_by_cell(context.rows, "health_latency_ms")
    for label, cells in groups:
        values = sorted(v for params in cells for v in latency.get(params, []))
        if not values:
            continue
        n = len(values)
        ax.step(values, [(i + 1) / n for i in range(n)], where="post", label=f"{label} (n={n})")
        drawn += 1
    if not drawn:
        return ""
    ax.set_xscale("log")
    ax.set_xlabel("/health latency (ms, log)")
    ax.set_ylabel("fraction of requests answered")
    ax.set_ylim(0, 1.02)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title, fontsize=11)
    corner_legend(ax, fontsize=7)
    return save(fig, context.out, stem, title)


def median_of(rows, params, metric):
    return stats.median(stats.values_by_cell(rows, metric).get(params, []))


def ratio_text(numerator, denominator, digits=1):
    if not numerator or not denominator or math.isnan(numerator) or math.isnan(denominator):
        return "–"
    return f"{numerator / denominator:.{digits}f}×"
