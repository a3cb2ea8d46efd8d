"""Report section for family `report`: seed 000's price report inline, chunked, on a new worker
thread per request and on a pool of two workers: stall timeline and /health CDF per mode, chunk
size against (total time, worst /health), the medians, and the instruments' calibration.

(The family is called `report`; this folder is families/report/, unrelated to the report
renderer package stallbench_lib.rendering.)"""
from ...rendering import grouping, stall_plots as plots, stats, table
from ...rendering.markup import collapsed
from ...rendering.figures import corner_legend, figure, legend_entries, save

# What this section reads of benches/report.cc, checked against the run's declarations (render.py).
CONSUMES = {
    "price-report": ("total_ms", "revenue", "health_p99_ms", "health_max_ms", "loop_delay_p99_ms", "loop_delay_max_ms",
                     "stall_max_ms", "slice_max_ms", "elu_overall", *plots.TIMELINE_METRICS),
    "meters": ("stall_injected_ms", "stall_sized_ms", "stall_error_ms", "loop_delay_p50_ms", "loop_delay_max_ms",
               "instrument_cpu_pct"),
}
PARAMETERS = {"price-report": ("rows", "mode", "chunk", "concurrent"), "meters": ("stall",)}
MODE_ORDER = ["inline", "chunked", "worker", "worker-pool"]

READING = """\
Seed 000 built a price report (VAT-inclusive revenue and mean unit price over 20,000,000 synthetic
order rows) three ways and polled `/health` every 20 ms meanwhile: **inline** kept `/health` waiting
for the whole report (481 ms), **chunked** (250,000 rows per slice, `await setImmediate()` between
slices) kept the worst wait to about one slice (13 ms), and a **worker** thread kept it at 1 ms. Its
exercise adds a fixed **worker-pool** of two threads against a new thread per request, with five
requests at once. The same experiment runs here on libuv, with the report in C++ (integer cents, so
every mode must give the same revenue to the cent, checked against a closed form). C++ computes a
row an order of magnitude faster than Node, so the stalls are shorter than the seed's; the shape is
the point: inline stalls for the whole report, chunked for about one slice, the workers not at all.
"""

TRADEOFF_READING = """\
The trade-off the seed asks about (★★☆): a smaller slice bounds the worst `/health` wait (right
axis) but adds a loop turn per slice, and every turn costs time (left axis). Dashed lines: inline,
where the whole report is one slice; dotted: worker, where the loop never computes it.
"""


def _cells(rows):
    """rows -> {(mode, chunk, concurrent): params} for the price-report benchmark."""
    grouped = grouping.cells(rows, lambda p: int(p["rows"]), lambda p: (p["mode"], int(p["chunk"]), int(p["concurrent"])),
                             benchmark="price-report")
    return dict(sorted(grouped.items()))


def _order(key):
    mode, chunk, concurrent = key
    return (concurrent, MODE_ORDER.index(mode) if mode in MODE_ORDER else 99, chunk)


def _label(mode, chunk, concurrent):
    text = f"chunked {chunk:,} rows" if mode == "chunked" else mode
    return text + (f", {concurrent} at once" if concurrent > 1 else "")


def _tradeoff(context, rows_count, cells):
    chunked = sorted((chunk, params) for (mode, chunk, concurrent), params in cells.items()
                     if mode == "chunked" and concurrent == 1)
    if not chunked:
        return ""
    fig, left = figure(1, 1, figsize=(7.5, 4.2))
    right = left.twinx()
    xs = [c for c, _ in chunked]

    def series(metric):
        return stats.median_and_range(stats.values_by_cell(context.rows, metric), chunked)

    total_xs, total, total_err = series("total_ms")
    worst_xs, worst, worst_err = series("health_max_ms")
    left.errorbar(total_xs, total, yerr=total_err, marker="o", color="#1f77b4", capsize=3, label="total time")
    right.errorbar(worst_xs, worst, yerr=worst_err, marker="s", color="#d62728", capsize=3, label="worst /health")
    for key, style in (((("inline", 0, 1)), "--"), ((("worker", 0, 1)), ":")):
        for ax, metric, colour in ((left, "total_ms", "#1f77b4"), (right, "health_max_ms", "#d62728")):
            level = plots.median_of(context.rows, cells[key], metric) if key in cells else None
            if level is not None:  # None: that cell failed
                ax.axhline(level, color=colour, ls=style, lw=1)
    left.set_xscale("log")
    left.set_xticks(xs, [f"{x:,}" for x in xs])
    left.set_xlabel("rows per slice (log)")
    left.set_ylabel("total report time (ms)", color="#1f77b4")
    right.set_ylabel("worst /health latency (ms)", color="#d62728")
    left.set_ylim(bottom=0)
    right.set_ylim(bottom=0)
    left.set_title(f"{rows_count:,} rows: slice size against total time and worst /health (median, min–max)", fontsize=10)
    handles, labels = legend_entries([left, right])
    corner_legend(left, handles, labels)
    return save(fig, context.out, f"report-chunk-tradeoff-{rows_count}", "chunk size against total time and worst /health")


def _revenue_check(context, cells):
    revenue = stats.values_by_cell(context.rows, "revenue")
    revenues = {stats.median(revenue.get(p, [])) for p in cells.values()}
    revenues.discard(None)
    if len(revenues) == 1:
        return (f"Every mode's every request reported the same revenue, **{revenues.pop():,.2f}** "
                "(each is checked against the closed form before it is recorded).\n")
    return f"**Revenues differ between cells: {sorted(revenues)}**\n"


TABLE_COLUMNS = ["mode", table.number("chunk"), table.number("concurrent"), table.number("total", "ms"),
                 table.number("/health p99 / max", "ms"), table.number("loop delay p99 / max", "ms"),
                 table.number("stall max", "ms"), table.number("slice max", "ms"), table.number("ELU")]
METERS_COLUMNS = [table.number("stall asked", "ms"), table.number("injected ms (median)"),
                  table.number("sized ms (median)"), table.number("worst error", "ms"),
                  table.number("monitor p50 / max", "ms"), table.number("CPU", "%")]


def _table(context, cells):
    rows = []
    medians = stats.medians_by_cell(context.rows, cells.values(),
                                    ("total_ms", "health_p99_ms", "health_max_ms", "loop_delay_p99_ms",
                                     "loop_delay_max_ms", "stall_max_ms", "slice_max_ms", "elu_overall"))
    for key in sorted(cells, key=_order):
        mode, chunk, concurrent = key
        m = medians[cells[key]]
        rows.append([mode, f"{chunk:,}" if chunk else None, concurrent, stats.fmt(m["total_ms"]),
                     f"{stats.fmt(m['health_p99_ms'])} / {stats.fmt(m['health_max_ms'])}",
                     f"{stats.fmt(m['loop_delay_p99_ms'])} / {stats.fmt(m['loop_delay_max_ms'])}",
                     stats.fmt(m["stall_max_ms"]), stats.fmt(m["slice_max_ms"]), stats.fmt(m["elu_overall"], 2)])
    return table.markdown(TABLE_COLUMNS, rows)


METERS_READING = """\
### Calibrating the instruments

Five busy-waits of a known length are injected on an otherwise idle loop, 47 ms apart (so they do
not line up with the monitor's 10 ms timer); each one times itself. *Sized* is what the exact stall
meter reported for it, *error* the worst difference over the five (target: within ±0.2 ms for a
2 ms stall). The delay monitor's largest gap shows what a 10 ms-resolution histogram makes of the
same stalls: about the resolution whatever the stall, so it cannot resolve a 2 ms one. *CPU* is the
loop thread's CPU time the three instruments add to an idle loop, as a share of wall time (target:
under 1%). An injected wait that took longer than asked was preempted: the machine is shared, and
the meter sizes what the loop actually lost.
"""


def _meters(context):
    rows = [r for r in context.rows if r.benchmark == "meters"]
    if not rows:
        return ""
    cells = sorted(dict.fromkeys(r.params for r in rows), key=lambda p: int(p["stall"]))
    medians = stats.medians_by_cell(rows, cells, ("stall_injected_ms", "stall_sized_ms", "loop_delay_p50_ms",
                                                  "loop_delay_max_ms", "instrument_cpu_pct"))
    errors = stats.values_by_cell(rows, "stall_error_ms")

    def row(params):
        m, worst = medians[params], max(errors.get(params, []), key=abs, default=None)
        return [params["stall"], stats.fmt(m["stall_injected_ms"], 3), stats.fmt(m["stall_sized_ms"], 3),
                stats.fmt(worst, 3), f"{stats.fmt(m['loop_delay_p50_ms'])} / {stats.fmt(m['loop_delay_max_ms'])}",
                stats.fmt(m["instrument_cpu_pct"], 2)]
    return METERS_READING + "\n" + table.markdown(METERS_COLUMNS, [row(params) for params in cells])


def sections(context) -> str:
    parts = []
    grouped = _cells(context.rows)
    if grouped:
        parts += ["### The price report: inline, chunked, worker (seed 000)\n", READING]
    for rows_count, cells in grouped.items():
        parts.append(f"#### {rows_count:,} rows\n")
        parts.append(_revenue_check(context, cells))
        single = [(_label(*key), cells[key]) for key in sorted(cells, key=_order) if key[2] == 1]
        parts.append(plots.TIMELINE_READING.format(work="report (all requests)"))
        parts.append(plots.timeline_figure(context, single, f"{rows_count:,} rows: stall timeline per mode",
                                           f"report-timeline-{rows_count}", "report", "total_ms"))
        parts.append(plots.CDF_READING)
        parts.append(plots.cdf_figure(context, [(_label(*key), [cells[key]]) for key in sorted(cells, key=_order)],
                                      f"{rows_count:,} rows: /health latency per mode", f"report-health-cdf-{rows_count}"))
        tradeoff = _tradeoff(context, rows_count, cells)
        if tradeoff:
            parts += [TRADEOFF_READING, tradeoff]
        parts.append(collapsed("Medians per cell", "*slice max* is the longest slice a chunked report ran between "
                               "two yields: the bound on the stall it causes.\n\n" + _table(context, cells)))
    parts.append(_meters(context))
    return "\n".join(p for p in parts if p)
