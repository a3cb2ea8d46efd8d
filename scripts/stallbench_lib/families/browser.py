"""Report section for family `browser`: a long task on a page's main thread in Chromium, inline,
chunked by each scheduling API or on a Web Worker, against the frames the page rendered and the
clicks it answered. A frame timeline per strategy, time to finish against worst input delay across
strategies and chunk sizes, frames and worst input delay per strategy for the report and the parse
side by side, and the medians."""
from collections import defaultdict

from ..medians import middle
from ..report import grouping, stats, table
from ..report.markup import collapsed
from ..report.figures import corner_legend, figure, save, shared_legend
from ._stall_plots import median_repetition

STRATEGIES = ["inline", "timeout", "message-channel", "idle-callback", "yield", "post-task", "worker"]
LABELS = {"inline": "inline", "timeout": "setTimeout 0", "message-channel": "MessageChannel",
          "idle-callback": "requestIdleCallback", "yield": "scheduler.yield", "post-task": "scheduler.postTask",
          "worker": "Web Worker"}
COLOURS = {"inline": "#d62728", "timeout": "#1f77b4", "message-channel": "#17becf", "idle-callback": "#9467bd",
           "yield": "#2ca02c", "post-task": "#bcbd22", "worker": "#7f7f7f"}
SIZE = {"report": "rows", "parse": "orders"}
_READ = ("total_ms", "frames", "frame_rate_hz", "frame_gap_max_ms", "longtasks", "longtask_max_ms", "loaf_max_ms",
         "chunk_max_ms", "input_delay_p50_ms", "input_delay_max_ms", "interaction_max_ms", "work_start_ms", "work_end_ms",
         "frame_at_ms", "longtask_at_ms", "longtask_ms", "click_at_ms", "click_delay_ms")
# What this section reads of benches/browser.cc, checked against the run's declarations (render.py).
CONSUMES = {benchmark: _READ for benchmark in SIZE}
FRAME_COLOUR, TASK_COLOUR, CLICK_COLOUR, WORK_COLOUR = "#1f77b4", "#d62728", "#2ca02c", "#ffd8a8"

READING = """\
Seeds 001 and 003 describe the browser's loop: it runs one task to completion, then every
microtask, then -- when a frame is due -- a rendering step (requestAnimationFrame callbacks, style,
layout, paint), then the next task. A long task therefore freezes the page: no frame and no click
can come until it ends. Here the long task is seed 000's price report (`report`) or `JSON.parse` of
the orders payload with its record sums (`parse`), run on the main thread of a page in headless
Chromium while a requestAnimationFrame loop animates a square and the driver clicks the page every
`click_ms` through the DevTools protocol's input events, as a mouse would.

- **inline**: the whole work in one task. No frame runs during it; every click waits for its end.
- **setTimeout 0, MessageChannel, requestIdleCallback, scheduler.yield, scheduler.postTask**: the
  same work in chunks, each API handing the main thread back between two; frames and clicks get in
  between chunks, so the worst input delay falls to about one chunk. Each pause costs something
  (setTimeout is clamped to 4 ms after five nested levels; requestIdleCallback waits for idle time),
  so the work takes longer.
- **Web Worker**: the work on another thread; the main thread keeps rendering and answering.

Frames are requestAnimationFrame callbacks at the time they ran (a rendering step the main thread
took); long tasks and long animation frames come from their PerformanceObservers (50 ms and more);
each click's input delay (input to its listener starting) and processing from Event Timing (the
listener's own timestamps for clicks Event Timing leaves out under its 16 ms floor). Every answer
is checked against the C++ one, so every strategy computed the same thing.
"""

TIMELINE_READING = """\
One panel per strategy (its middle chunk size; the repetition with the median time to finish). The shaded band is the
work, from its start to its answer. Blue ticks at the top are frames (rendering steps that ran);
red bars are long tasks (their length, drawn from their start); green dots are clicks, at the time
they happened and the height of their input delay. A click during an inline task waits for the
rest of it: the dots climb a diagonal down to the task's end.
"""

TRADEOFF_READING = """\
The trade-off the seeds describe: smaller chunks keep the worst input delay (x) near a chunk's
length, but every pause between chunks costs time, so the work takes longer to finish (y). Each
point is one strategy and chunk size (median over repetitions; the number beside it is the chunk);
inline sits far right, the worker near zero delay at the price of starting a thread and copying.
"""


def _cells(rows):
    """(benchmark, size) -> (strategy, chunk) -> params."""
    grouped = {(benchmark, size): cells for benchmark, size_key in SIZE.items()
               for size, cells in grouping.cells(rows, lambda p, key=size_key: int(p[key]),
                                                 lambda p: (p["strategy"], int(p["chunk"])), benchmark=benchmark).items()}
    return dict(sorted(grouped.items()))


def _order(key):
    strategy, chunk = key
    return (STRATEGIES.index(strategy) if strategy in STRATEGIES else 99, chunk)


def _label(strategy, chunk):
    return LABELS.get(strategy, strategy) + (f", {chunk:,} per chunk" if chunk else "")


def _what(benchmark, size):
    return f"{size:,}-row report" if benchmark == "report" else f"{size:,}-order parse"


def _one_chunk_each(cells):
    """Per strategy, the cell with its middle chunk size: one timeline panel per strategy."""
    chunks = defaultdict(list)
    for strategy, chunk in cells:
        chunks[strategy].append(chunk)
    return {(s, middle(c)) for s, c in chunks.items()}


def _timeline(context, benchmark, size, cells):
    panels = []
    for key in sorted(_one_chunk_each(cells), key=_order):
        params = cells[key]
        cell_rows = [r for r in context.rows if r.params == params]
        rep = median_repetition(cell_rows, params, "total_ms")
        if rep is not None:
            panels.append((_label(*key), cell_rows, params, rep))
    if not panels:
        return ""
    fig, axes = figure(len(panels), 1, figsize=(9, 0.6 + 1.5 * len(panels)), squeeze=False, sharex=True)
    for ax, (label, cell_rows, params, rep) in zip(axes[:, 0], panels):
        series = lambda metric: stats.per_repetition(cell_rows, params, metric).get(rep, [])  # noqa: E731
        start, end = series("work_start_ms"), series("work_end_ms")
        if start and end:
            ax.axvspan(start[0], end[0], color=WORK_COLOUR, alpha=0.7, lw=0, label="the work")
        delays = series("click_delay_ms")
        top = max([50.0, *delays, *series("longtask_ms")]) * 1.15
        ax.vlines(series("frame_at_ms"), top * 0.9, top, color=FRAME_COLOUR, lw=0.8, label="frame (rAF ran)")
        lengths = series("longtask_ms")
        if lengths:
            ax.bar(series("longtask_at_ms"), lengths, width=lengths, align="edge", color=TASK_COLOUR, alpha=0.35,
                   label="long task (length)")
        ax.scatter(series("click_at_ms"), delays, s=14, color=CLICK_COLOUR, zorder=3, label="click (input delay)")
        ax.set_ylim(0, top)
        ax.set_ylabel("ms")
        ax.set_title(label, fontsize=9, loc="left")
    axes[-1, 0].set_xlabel("time since the window opened (ms)")
    title = f"{_what(benchmark, size)}: frames, long tasks and clicks per strategy"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, f"browser-timeline-{benchmark}-{size}", title)


def _tradeoff(context, benchmark, size, cells):
    medians = stats.medians_by_cell(context.rows, cells.values(), ("total_ms", "input_delay_max_ms"))
    fig, ax = figure(1, 1, figsize=(7.5, 4.5))
    drawn = set()
    for key in sorted(cells, key=_order):
        strategy, chunk = key
        m = medians[cells[key]]
        if m["total_ms"] is None or m["input_delay_max_ms"] is None:
            continue
        ax.scatter(m["input_delay_max_ms"], m["total_ms"], color=COLOURS.get(strategy, "black"), s=30,
                   label=None if strategy in drawn else LABELS.get(strategy, strategy), zorder=3)
        drawn.add(strategy)
        if chunk:
            ax.annotate(f"{chunk:,}", (m["input_delay_max_ms"], m["total_ms"]), fontsize=6,
                        xytext=(3, 3), textcoords="offset points")
    if not drawn:
        return ""
    ax.set_xscale("log")
    ax.set_xlabel("worst input delay of a click (ms, log)")
    ax.set_ylabel("time to finish the work (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    title = f"{_what(benchmark, size)}: time to finish against worst input delay"
    ax.set_title(title, fontsize=10)
    corner_legend(ax, fontsize=7)
    return save(fig, context.out, f"browser-tradeoff-{benchmark}-{size}", title)


def _side_by_side(context, grouped):
    """Frames per second during the work and worst input delay per strategy, the largest report
    and the largest parse of the run next to each other (the seeds' 20,000,000 rows and 84.8 MiB
    in the figure run)."""
    largest = {}
    for (benchmark, size), cells in grouped.items():
        largest[benchmark] = (size, cells)
    if len(largest) < 1:
        return ""
    columns = [(b, *largest[b]) for b in ("report", "parse") if b in largest]
    fig, axes = figure(2, len(columns), figsize=(5.2 * len(columns), 6), squeeze=False)
    for col, (benchmark, size, cells) in enumerate(columns):
        keys = sorted(cells, key=_order)
        medians = stats.medians_by_cell(context.rows, [cells[k] for k in keys],
                                        ("frame_rate_hz", "input_delay_max_ms", "total_ms"))
        names = [_label(*k).replace(" per chunk", "") for k in keys]
        colours = [COLOURS.get(k[0], "black") for k in keys]
        for row, (metric, ylabel) in enumerate((("frame_rate_hz", "frames per second during the work"),
                                                ("input_delay_max_ms", "worst input delay (ms, log)"))):
            ax = axes[row, col]
            values = [medians[cells[k]][metric] or 0 for k in keys]
            ax.bar(range(len(keys)), values, color=colours)
            if metric == "input_delay_max_ms":  # inline's delay is 10-100x a chunked one's
                ax.set_yscale("log")
            for i, v in enumerate(values):
                ax.annotate(stats.fmt(v, 0), (i, v), ha="center", va="bottom", fontsize=7)
            ax.set_xticks(range(len(keys)), names if row else [""] * len(keys), rotation=35, ha="right", fontsize=7)
            ax.set_ylabel(ylabel, fontsize=8)
            if row == 0:
                ax.set_title(_what(benchmark, size), fontsize=10)
    title = "Frames and worst input delay per strategy (medians)"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return save(fig, context.out, "browser-frames-and-delay", title)


TABLE_COLUMNS = ["strategy", table.number("chunk"), table.number("finish", "ms"), table.number("frames (per s)"),
                 table.number("frame gap max", "ms"), table.number("long tasks (max ms)"), table.number("LoAF max", "ms"),
                 table.number("chunk max", "ms"), table.number("input delay p50 / max", "ms"),
                 table.number("interaction max", "ms")]


def _table(context, cells):
    metrics = ("total_ms", "frames", "frame_rate_hz", "frame_gap_max_ms", "longtasks", "longtask_max_ms",
               "loaf_max_ms", "chunk_max_ms", "input_delay_p50_ms", "input_delay_max_ms", "interaction_max_ms")
    rows = []
    medians = stats.medians_by_cell(context.rows, cells.values(), metrics)
    for key in sorted(cells, key=_order):
        strategy, chunk = key
        m = medians[cells[key]]
        rows.append([LABELS.get(strategy, strategy), f"{chunk:,}" if chunk else None, stats.fmt(m["total_ms"]),
                     f"{stats.fmt(m['frames'], 0)} ({stats.fmt(m['frame_rate_hz'], 0)})", stats.fmt(m["frame_gap_max_ms"]),
                     f"{stats.fmt(m['longtasks'], 0)} ({stats.fmt(m['longtask_max_ms'])})", stats.fmt(m["loaf_max_ms"]),
                     stats.fmt(m["chunk_max_ms"]), f"{stats.fmt(m['input_delay_p50_ms'])} / {stats.fmt(m['input_delay_max_ms'])}",
                     stats.fmt(m["interaction_max_ms"])])
    return table.markdown(TABLE_COLUMNS, rows)


def sections(context) -> str:
    grouped = _cells(context.rows)
    if not grouped:
        return ""
    chromium = context.run.meta.get("versions", {}).get("chromium", "")
    # Only a version goes in the title: the family ran, whatever meta.json could learn of its version.
    named = f"Chromium {chromium}" if chromium[:1].isdigit() else "Chromium"
    parts = [f"### A long task in {named}: frames and clicks (seeds 001, 003)\n", READING]
    side = _side_by_side(context, grouped)
    if side:
        parts.append(side)
    for (benchmark, size), cells in grouped.items():
        parts.append(f"#### The {_what(benchmark, size)}\n")
        parts += [TIMELINE_READING, _timeline(context, benchmark, size, cells)]
        parts += [TRADEOFF_READING, _tradeoff(context, benchmark, size, cells)]
        parts.append(collapsed("Medians per cell", "*frames* ran during the work (per second of it in brackets); "
                               "*interaction* is Event Timing's duration, input to the next paint, for clicks of 16 ms "
                               "or more.\n\n" + _table(context, cells)))
    return "\n".join(p for p in parts if p)
