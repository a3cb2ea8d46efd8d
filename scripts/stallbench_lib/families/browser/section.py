"""Report section for family `browser`: a long task on a page's main thread in Chromium and Firefox,
inline, chunked by each scheduling API or on a Web Worker, against the frames the page rendered and
the clicks it answered. A frame timeline per strategy and browser, time to finish against worst
input delay across strategies and chunk sizes (with the INP thresholds), frames, worst input delay,
TBT and INP with their verdicts per strategy and browser for the report and the parse side by side,
the medians, and each Chromium cell's long animation frames with their longest script. The
browsers, the thresholds and the LoAF attribution's vocabularies are the bench's declarations
(meta.json's tables and constants)."""
from collections import defaultdict

from ... import paths
from ...medians import middle
from ...rendering import grouping, stats, table
from ...rendering.markup import collapsed
from ...rendering.figures import corner_legend, figure, save, shared_legend
from ...rendering.stall_plots import median_repetition
from . import page_section
from .bands import verdict

STRATEGIES = ["inline", "timeout", "message-channel", "idle-callback", "yield", "post-task", "worker"]
LABELS = {"inline": "inline", "timeout": "setTimeout 0", "message-channel": "MessageChannel",
          "idle-callback": "requestIdleCallback", "yield": "scheduler.yield", "post-task": "scheduler.postTask",
          "worker": "Web Worker"}
COLOURS = {"inline": "#d62728", "timeout": "#1f77b4", "message-channel": "#17becf", "idle-callback": "#9467bd",
           "yield": "#2ca02c", "post-task": "#bcbd22", "worker": "#7f7f7f"}
SIZE = {"report": "rows", "parse": "orders"}
_READ = ("total_ms", "frames", "frame_rate_hz", "frame_gap_max_ms", "longtasks", "longtask_max_ms", "loaf_max_ms",
         "chunk_max_ms", "input_delay_p50_ms", "input_delay_max_ms", "interaction_max_ms", "work_start_ms", "work_end_ms",
         "frame_at_ms", "longtask_at_ms", "longtask_ms", "click_at_ms", "click_delay_ms", "tbt_ms",
         "inp_ms", "inp_input_delay_ms", "inp_processing_ms", "inp_presentation_ms", "loaf_blocking_max_ms",
         "frame_longtask_at_ms", "frame_longtask_ms", "loaf_at_ms", "loaf_ms", "loaf_blocking_ms", "loaf_render_start_ms",
         "loaf_style_layout_start_ms", "loaf_script_ms", "loaf_script_forced_layout_ms", "loaf_script_invoker",
         "loaf_script_source", "loaf_script_char")
# Also read, where the run has them, and not checked: tbt_frames_ms and clicks_backlogged (runs made
# before they existed, the report's fixture run among them, have neither: their tables show "–").
VERDICT_COLOURS = {"good": "#2ca02c", "needs improvement": "#ff7f0e", "poor": "#d62728"}
MARKERS = ["o", "^", "s", "D"]  # one per browser, in the declared order
PAGES = paths.ROOT / "workloads" / "browser" / "pages"
# What this section reads of benches/browser.cc, checked against the run's declarations (render.py).
CONSUMES = {**{benchmark: _READ for benchmark in SIZE}, "page": page_section.READ}
PARAMETERS = {**{benchmark: ("strategy", "chunk", size) for benchmark, size in SIZE.items()}, "page": ("browser",)}
ADDED_LATER = ("page",)  # a run before `stallbench page` has no such benchmark
FRAME_COLOUR, TASK_COLOUR, CLICK_COLOUR, WORK_COLOUR = "#1f77b4", "#d62728", "#2ca02c", "#ffd8a8"

READING = """\
Seeds 001 and 003 describe the browser's loop: it runs one task to completion, then every
microtask, then -- when a frame is due -- a rendering step (requestAnimationFrame callbacks, style,
layout, paint), then the next task. A long task therefore freezes the page: no frame and no click
can come until it ends. Here the long task is seed 000's price report (`report`) or `JSON.parse` of
the orders payload with its record sums (`parse`), run on the main thread of a page in each headless
browser while a requestAnimationFrame loop animates a square and the driver clicks the page every
`click_ms` (Chromium: the DevTools protocol's input events; Firefox: a mouse event synthesized in its
parent process, over WebDriver BiDi): real input, stamped as the browser receives it.

- **inline**: the whole work in one task. No frame runs during it; every click waits for its end.
- **setTimeout 0, MessageChannel, requestIdleCallback, scheduler.yield, scheduler.postTask**: the
  same work in chunks, each API handing the main thread back between two; frames and clicks get in
  between chunks, so the worst input delay falls to about one chunk. Each pause costs something
  (setTimeout is clamped to 4 ms after five nested levels; requestIdleCallback waits for idle time),
  so the work takes longer.
- **Web Worker**: the work on another thread; the main thread keeps rendering and answering.

Frames are requestAnimationFrame callbacks at the time they ran (a rendering step the main thread
took); long tasks and long animation frames come from their PerformanceObservers (50 ms and more);
each click's input delay (from its event's own timestamp to its listener starting) and processing
from Event Timing (the listener's own timestamps for clicks Event Timing leaves out under its 16 ms
floor). Every answer
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
    """(benchmark, size) -> browser -> (strategy, chunk) -> params (a run before the browser
    parameter: every cell is Chromium's)."""
    grouped = {(benchmark, size): cells for benchmark, size_key in SIZE.items()
               for size, cells in grouping.cells(rows, lambda p, key=size_key: int(p[key]),
                                                 lambda p: p.get("browser", "chromium"),
                                                 lambda p: (p["strategy"], int(p["chunk"])), benchmark=benchmark).items()}
    return dict(sorted(grouped.items()))


def _order(key):
    strategy, chunk = key
    return (STRATEGIES.index(strategy) if strategy in STRATEGIES else 99, chunk)


def _browsers(context) -> dict[str, dict]:
    """name -> the declared row (label, protocol, ...), in the declared order."""
    return {row["name"]: row for row in context.table("browsers")}


def _browser_label(context, name: str) -> str:
    row = _browsers(context).get(name)
    version = context.run.meta.get("versions", {}).get(name, "")
    label = row["label"] if row else name.capitalize()
    return f"{label} {version}" if version[:1].isdigit() else label


def _by_browser_order(context, browsers):
    declared = list(_browsers(context))
    return sorted(browsers, key=lambda b: declared.index(b) if b in declared else 99)


def _thresholds(context, benchmark):
    c = lambda name: context.constant(benchmark, name)  # noqa: E731
    return {"inp": (c("inp_good_ms"), c("inp_poor_ms")), "tbt": (c("tbt_good_ms"), c("tbt_poor_ms"))}


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


def _timeline(context, benchmark, size, browser, cells):
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
        # Long tasks from the longtask observer where the browser has one, else from the frame gaps.
        at, lengths = series("longtask_at_ms"), series("longtask_ms")
        source = "long task (length)"
        if not lengths and not series("longtasks"):
            at, lengths, source = series("frame_longtask_at_ms"), series("frame_longtask_ms"), "long task (frame gap)"
        top = max([50.0, *delays, *lengths]) * 1.15
        ax.vlines(series("frame_at_ms"), top * 0.9, top, color=FRAME_COLOUR, lw=0.8, label="frame (rAF ran)")
        if lengths:
            ax.bar(at, lengths, width=lengths, align="edge", color=TASK_COLOUR, alpha=0.35, label=source)
        ax.scatter(series("click_at_ms"), delays, s=14, color=CLICK_COLOUR, zorder=3, label="click (input delay)")
        ax.set_ylim(0, top)
        ax.set_ylabel("ms")
        ax.set_title(label, fontsize=9, loc="left")
    axes[-1, 0].set_xlabel("time since the window opened (ms)")
    title = f"{_what(benchmark, size)} in {_browser_label(context, browser)}: frames, long tasks and clicks per strategy"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, f"browser-timeline-{benchmark}-{size}-{browser}", title)


def _tradeoff(context, benchmark, size, by_browser):
    fig, ax = figure(1, 1, figsize=(7.5, 4.5))
    drawn = set()
    for b_index, browser in enumerate(_by_browser_order(context, by_browser)):
        cells = by_browser[browser]
        medians = stats.medians_by_cell(context.rows, cells.values(), ("total_ms", "input_delay_max_ms"))
        marker = MARKERS[b_index % len(MARKERS)]
        for key in sorted(cells, key=_order):
            strategy, chunk = key
            m = medians[cells[key]]
            if m["total_ms"] is None or m["input_delay_max_ms"] is None:
                continue
            name = f"{LABELS.get(strategy, strategy)} ({_browsers(context).get(browser, {}).get('label', browser)})"
            ax.scatter(m["input_delay_max_ms"], m["total_ms"], color=COLOURS.get(strategy, "black"), s=30,
                       marker=marker, label=None if name in drawn else name, zorder=3)
            drawn.add(name)
            if chunk:
                ax.annotate(f"{chunk:,}", (m["input_delay_max_ms"], m["total_ms"]), fontsize=6,
                            xytext=(3, 3), textcoords="offset points")
    if not drawn:
        return ""
    good, poor = _thresholds(context, benchmark)["inp"]
    ax.axvline(good, color=VERDICT_COLOURS["good"], ls="--", lw=1, label=f"INP good ≤ {good:g} ms")
    ax.axvline(poor, color=VERDICT_COLOURS["poor"], ls="--", lw=1, label=f"INP poor > {poor:g} ms")
    ax.set_xscale("log")
    ax.set_xlabel("worst input delay of a click (ms, log)")
    ax.set_ylabel("time to finish the work (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    title = f"{_what(benchmark, size)}: time to finish against worst input delay"
    ax.set_title(title, fontsize=10)
    corner_legend(ax, fontsize=6)
    return save(fig, context.out, f"browser-tradeoff-{benchmark}-{size}", title)


SIDE_METRICS = (("frame_rate_hz", "frames per second during the work", False),
                ("input_delay_max_ms", "worst input delay (ms, log)", True),
                ("tbt_ms", "TBT (ms, log; colour: verdict)", True),
                ("inp_ms", "INP (ms, log; colour: verdict)", True))


def _side_by_side(context, grouped):
    """Frames per second during the work, worst input delay, TBT and INP (coloured by verdict) per
    strategy and browser, the largest report and the largest parse of the run next to each other
    (the seeds' 20,000,000 rows and 84.8 MiB in the figure run)."""
    largest = {}
    for (benchmark, size), by_browser in grouped.items():
        largest[benchmark] = (size, by_browser)
    columns = [(b, *largest[b]) for b in ("report", "parse") if b in largest]
    if not columns:
        return ""
    fig, axes = figure(len(SIDE_METRICS), len(columns), figsize=(6 * len(columns), 10), squeeze=False)
    for col, (benchmark, size, by_browser) in enumerate(columns):
        browsers = _by_browser_order(context, by_browser)
        keys = sorted({k for b in browsers for k in by_browser[b]}, key=_order)
        limits = _thresholds(context, benchmark)
        width = 0.8 / len(browsers)
        for row, (metric, ylabel, log) in enumerate(SIDE_METRICS):
            ax = axes[row, col]
            for b_index, browser in enumerate(browsers):
                cells = by_browser[browser]
                medians = stats.medians_by_cell(context.rows, [cells[k] for k in keys if k in cells], (metric,))
                for i, k in enumerate(keys):
                    if k not in cells or medians[cells[k]][metric] is None:
                        continue
                    v = medians[cells[k]][metric]
                    band = metric.split("_")[0]
                    colour = (VERDICT_COLOURS[verdict(v, *limits[band])] if band in limits
                              else COLOURS.get(k[0], "black"))
                    x = i + (b_index - (len(browsers) - 1) / 2) * width
                    ax.bar(x, max(v, 0.1) if log else v, width=width * 0.95, color=colour,
                           hatch="//" if b_index else None, edgecolor="white")
                    ax.annotate(stats.fmt(v, 0), (x, max(v, 0.1) if log else v), ha="center", va="bottom", fontsize=5)
            if log:
                ax.set_yscale("log")
            band = metric.split("_")[0]
            if band in limits:
                for value, name in zip(limits[band], ("good", "poor")):
                    ax.axhline(value, color=VERDICT_COLOURS[name], ls="--", lw=0.8)
            names = [_label(*k).replace(" per chunk", "") for k in keys]
            ax.set_xticks(range(len(keys)), names if row == len(SIDE_METRICS) - 1 else [""] * len(keys),
                          rotation=35, ha="right", fontsize=7)
            ax.set_ylabel(ylabel, fontsize=7)
            if row == 0:
                ax.set_title(_what(benchmark, size) + ": " + " | ".join(
                    f"{_browser_label(context, b)}{' (hatched)' if i else ''}" for i, b in enumerate(browsers)), fontsize=8)
    title = "Frames, worst input delay, TBT and INP per strategy and browser (medians; dashed: the thresholds)"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return save(fig, context.out, "browser-frames-and-delay", title)


TABLE_COLUMNS = ["strategy", table.number("chunk"), table.number("finish", "ms"), table.number("frames (per s)"),
                 table.number("frame gap max", "ms"), table.number("long tasks (max ms)"),
                 table.number("TBT (frame gaps)", "ms"), "TBT verdict", table.number("INP (range)", "ms"),
                 table.number("its repetition: INP = delay + processing + presentation", "ms"), "INP verdict",
                 table.number("LoAF max / blocking max", "ms"), table.number("input delay p50 / max", "ms")]
_TABLE_METRICS = ("total_ms", "frames", "frame_rate_hz", "frame_gap_max_ms", "longtasks", "longtask_max_ms", "tbt_ms",
                  "tbt_frames_ms", "inp_ms", "loaf_max_ms", "loaf_blocking_max_ms", "input_delay_p50_ms",
                  "input_delay_max_ms")
INP_PHASES = ("inp_input_delay_ms", "inp_processing_ms", "inp_presentation_ms")
NOT_AVAILABLE = "n/a"


def _inp_of_median_repetition(cell_rows, params) -> str | None:
    """The repetition with the median INP, its phases beside it: they add up (medians of each phase,
    taken separately, need not)."""
    rep = median_repetition(cell_rows, params, "inp_ms")
    if rep is None:
        return None
    value = lambda metric: (stats.per_repetition(cell_rows, params, metric).get(rep) or [None])[0]  # noqa: E731
    return f"{stats.fmt(value('inp_ms'))} = " + " + ".join(stats.fmt(value(m)) for m in INP_PHASES)


def _range(cell_rows, params, metric) -> str:
    values = [v for vs in stats.per_repetition(cell_rows, params, metric).values() for v in vs]
    return f" ({stats.fmt(min(values))}-{stats.fmt(max(values))})" if len(values) > 1 else ""


def _backlog_note(cell_rows, params) -> str:
    """Repetitions whose clicks came in a burst after the work: their input delay is not the page's."""
    backlogged = sum(1 for vs in stats.per_repetition(cell_rows, params, "clicks_backlogged").values() if vs and vs[0])
    return f"; {backlogged} backlogged" if backlogged else ""


def _table(context, benchmark, cells):
    rows = []
    limits = _thresholds(context, benchmark)
    medians = stats.medians_by_cell(context.rows, cells.values(), _TABLE_METRICS)
    for key in sorted(cells, key=_order):
        strategy, chunk = key
        params = cells[key]
        cell_rows = [r for r in context.rows if r.params == params]
        m = medians[params]
        either = lambda value, text: NOT_AVAILABLE if value is None else text  # noqa: E731
        rows.append([LABELS.get(strategy, strategy), f"{chunk:,}" if chunk else None, stats.fmt(m["total_ms"]),
                     f"{stats.fmt(m['frames'], 0)} ({stats.fmt(m['frame_rate_hz'], 0)})", stats.fmt(m["frame_gap_max_ms"]),
                     either(m["longtasks"], f"{stats.fmt(m['longtasks'], 0)} ({stats.fmt(m['longtask_max_ms'])})"),
                     f"{stats.fmt(m['tbt_ms'])} ({stats.fmt(m['tbt_frames_ms'])})", verdict(m["tbt_ms"], *limits["tbt"]),
                     either(m["inp_ms"], stats.fmt(m["inp_ms"]) + _range(cell_rows, params, "inp_ms"))
                     + _backlog_note(cell_rows, params),
                     _inp_of_median_repetition(cell_rows, params), verdict(m["inp_ms"], *limits["inp"]),
                     either(m["loaf_max_ms"], f"{stats.fmt(m['loaf_max_ms'])} / {stats.fmt(m['loaf_blocking_max_ms'])}"),
                     either(m["input_delay_max_ms"],
                            f"{stats.fmt(m['input_delay_p50_ms'])} / {stats.fmt(m['input_delay_max_ms'])}")])
    return table.markdown(TABLE_COLUMNS, rows)


def _source(context, index, char) -> str:
    """A LoAF script's source as file:line (the page file at this checkout), from the bench's
    numbering (the page_scripts table) and its character position."""
    files = [row["name"] for row in context.table("page_scripts")]
    if index is None or not 0 <= int(index) < len(files):
        return "another source"
    name = files[int(index)]
    try:
        text = (PAGES / name).read_text()
    except OSError:
        return name
    return f"{name}:{text[:int(char)].count(chr(10)) + 1}" if char is not None and char >= 0 else name


LOAF_COLUMNS = ["strategy", table.number("at", "ms"), table.number("duration", "ms"), table.number("blocking", "ms"),
                table.number("render start", "ms"), table.number("style & layout start", "ms"),
                "longest script: invoker, source", table.number("its duration (forced layout)", "ms")]


def _loaf_table(context, cells):
    """Each long animation frame of the median repetition per strategy, with its longest script."""
    invokers = [row["name"] for row in context.table("loaf_invokers")]
    rows = []
    for key in sorted(cells, key=_order):
        params = cells[key]
        cell_rows = [r for r in context.rows if r.params == params]
        rep = median_repetition(cell_rows, params, "total_ms")
        series = lambda metric: stats.per_repetition(cell_rows, params, metric).get(rep, [])  # noqa: E731
        at = series("loaf_at_ms")
        columns = [series(m) for m in ("loaf_ms", "loaf_blocking_ms", "loaf_render_start_ms", "loaf_style_layout_start_ms",
                                       "loaf_script_ms", "loaf_script_forced_layout_ms", "loaf_script_invoker",
                                       "loaf_script_source", "loaf_script_char")]
        for i, start in enumerate(at):
            length, blocking, render, style, script, forced, invoker, source, char = (c[i] if i < len(c) else None
                                                                                      for c in columns)
            who = invokers[int(invoker)] if invoker is not None and 0 <= invoker < len(invokers) else "no script"
            rows.append([_label(*key), stats.fmt(start), stats.fmt(length), stats.fmt(blocking),
                         stats.fmt(render) if render is not None and render >= 0 else "–",
                         stats.fmt(style) if style is not None and style >= 0 else "–",
                         f"{who}, {_source(context, source, char)}", f"{stats.fmt(script)} ({stats.fmt(forced)})"])
    return table.markdown(LOAF_COLUMNS, rows) if rows else ""


VERDICT_READING = """\
Verdicts use the thresholds web developers judge by (declared by the bench, kept in meta.json): INP
good at or under {inp_good:g} ms, poor over {inp_poor:g} ms (web.dev); TBT good at or under
{tbt_good:g} ms, poor over {tbt_poor:g} ms (Lighthouse, desktop; mobile: {tbt_mobile_good:g} / {tbt_mobile_poor:g}).
INP is web-vitals' rule over the window's clicks (the longest, one in 50 ignored), split into input
delay, processing and presentation delay: the table gives the median INP with its range, and the
phases of the repetition with the median INP (they add up). A repetition whose clicks, sent during
the work, reached the page in a burst after it (the driver's backlog, not the page's delay) has no
INP: the table counts those. TBT comes from the browser's own task times where it reports them
(Chromium's longtask entries, what Lighthouse reads from a trace), else from the frame gaps (Firefox,
which has no longtask or long-animation-frame entries: those columns say n/a there); the frame-gap
TBT of every browser is in brackets, the cross-check.
"""


def sections(context) -> str:
    page = page_section.sections(context, lambda b: _browser_label(context, b), verdict)
    grouped = _cells([r for r in context.rows if r.benchmark in SIZE])
    if not grouped:
        return page
    browsers = _by_browser_order(context, {b for by_browser in grouped.values() for b in by_browser})
    named = " and ".join(_browser_label(context, b) for b in browsers)
    benchmark = next(iter(grouped))[0]
    limits = {name: context.constant(benchmark, f"{name}_ms") for name in
              ("inp_good", "inp_poor", "tbt_good", "tbt_poor", "tbt_mobile_good", "tbt_mobile_poor")}
    parts = [f"### A long task in {named}: frames and clicks (seeds 001, 003)\n", READING,
             VERDICT_READING.format(**limits)]
    side = _side_by_side(context, grouped)
    if side:
        parts.append(side)
    for (benchmark, size), by_browser in grouped.items():
        parts.append(f"#### The {_what(benchmark, size)}\n")
        parts += [TRADEOFF_READING, _tradeoff(context, benchmark, size, by_browser)]
        for browser in _by_browser_order(context, by_browser):
            cells = by_browser[browser]
            label = _browser_label(context, browser)
            parts += [f"##### {label}\n", TIMELINE_READING, _timeline(context, benchmark, size, browser, cells)]
            parts.append(collapsed(f"Medians per cell, {label}",
                                   "*frames* ran during the work (per second of it in brackets); TBT from the "
                                   "best signal (from the frame gaps in brackets); INP's phases are one "
                                   "repetition's.\n\n" + _table(context, benchmark, cells)))
            loafs = _loaf_table(context, cells)
            if loafs:
                parts.append(collapsed(f"Long animation frames and their longest script, {label}", loafs))
    return "\n".join(p for p in parts + [page] if p)
