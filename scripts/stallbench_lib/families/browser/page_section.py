"""Report section of `stallbench page` (bench_browser's `page` benchmark): per browser, the timeline
of the repetition with the median TBT (frames, long tasks, interactions) and its medians with ranges
and verdicts, INP's phases being that repetition's own (they add up), the references beside."""
from ...rendering import stats, table
from ...rendering.figures import figure, save, shared_legend
from ...rendering.stall_plots import median_repetition

READ = ("window_ms", "tbt_ms", "tbt_frames_ms", "tbt_measures_ms", "tbt_lighthouse_ms", "inp_ms", "inp_web_vitals_ms",
        "inp_input_delay_ms", "inp_processing_ms", "inp_presentation_ms", "frame_rate_hz", "longtasks", "loafs",
        "fcp_ms", "documents", "frame_at_ms", "longtask_at_ms", "longtask_ms", "interaction_at_ms", "interaction_ms")
FRAME_COLOUR, TASK_COLOUR, INPUT_COLOUR = "#1f77b4", "#d62728", "#2ca02c"
PHASES = ("inp_input_delay_ms", "inp_processing_ms", "inp_presentation_ms")
COLUMNS = ["browser", table.number("TBT (range)", "ms"), "TBT verdict", table.number("INP (range)", "ms"), "INP verdict",
           table.number("its repetition: INP = delay + processing + presentation", "ms"), table.number("frames/s"),
           table.number("long tasks / LoAFs"), table.number("page's own TBT / frame gaps' TBT", "ms"),
           table.number("Lighthouse TBT / web-vitals INP", "ms")]

READING = """\
`stallbench page` loaded the page (and ran its interaction script) in each browser. TBT is over the
long tasks from the first contentful paint on, from the browser's own task times where it reports
them (Chromium's longtask entries), else from the gaps between frames (Firefox); INP is web-vitals'
rule over Event Timing's interactions, with its phases. The timeline is the repetition with the
median TBT: frames as ticks along the top, long tasks as red bars from their start, each
interaction as a dot at its input, as high as its duration (input to next paint).
"""


def _values(rows, params, metric):
    return {rep: vs[0] for rep, vs in stats.per_repetition(rows, params, metric).items() if vs}


def _spread(values):
    if not values:
        return None
    v = sorted(values.values())
    return stats.fmt(v[(len(v) - 1) // 2]) + (f" ({stats.fmt(v[0])}-{stats.fmt(v[-1])})" if len(v) > 1 else "")


def _median(values):
    v = sorted(values.values())
    return v[(len(v) - 1) // 2] if v else None


def _timeline(context, cells, label):
    fig, axes = figure(len(cells), 1, figsize=(9, 0.8 + 1.8 * len(cells)), squeeze=False, sharex=True)
    for ax, (browser, params) in zip(axes[:, 0], cells.items()):
        rows = [r for r in context.rows if r.params == params]
        rep = median_repetition(rows, params, "tbt_ms")
        series = lambda metric: stats.per_repetition(rows, params, metric).get(rep, [])  # noqa: E731
        lengths, durations = series("longtask_ms"), series("interaction_ms")
        top = max([100.0, *lengths, *durations]) * 1.15
        ax.vlines(series("frame_at_ms"), top * 0.9, top, color=FRAME_COLOUR, lw=0.6, label="frame (rAF ran)")
        if lengths:
            ax.bar(series("longtask_at_ms"), lengths, width=lengths, align="edge", color=TASK_COLOUR, alpha=0.35,
                   label="long task (length)")
        ax.scatter(series("interaction_at_ms"), durations, s=18, color=INPUT_COLOUR, zorder=3,
                   label="interaction (duration)")
        ax.set_ylim(0, top)
        ax.set_ylabel("ms")
        ax.set_title(label(browser), fontsize=9, loc="left")
    axes[-1, 0].set_xlabel("time since the navigation started (ms)")
    title = "The page: frames, long tasks and interactions (the repetition with the median TBT)"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, "browser-page-timeline", title)


def sections(context, label, verdict) -> str:
    cells = {r.params["browser"]: r.params for r in context.rows if r.benchmark == "page"}
    if not cells:
        return ""
    good_poor = {k: (context.constant("page", f"{k}_good_ms"), context.constant("page", f"{k}_poor_ms"))
                 for k in ("tbt", "inp")}
    rows_out = []
    for browser, params in cells.items():
        rows = [r for r in context.rows if r.params == params]
        get = lambda metric: _values(rows, params, metric)  # noqa: E731
        inp = get("inp_ms")
        rep = median_repetition(rows, params, "inp_ms")
        phases = (f"{stats.fmt(inp[rep])} = " + " + ".join(stats.fmt(get(p).get(rep)) for p in PHASES)) if inp else None
        rows_out.append([label(browser), _spread(get("tbt_ms")), verdict(_median(get("tbt_ms")), *good_poor["tbt"]),
                         _spread(inp), verdict(_median(inp), *good_poor["inp"]), phases,
                         _spread(get("frame_rate_hz")),
                         f"{_spread(get('longtasks')) or 'n/a'} / {_spread(get('loafs')) or 'n/a'}",
                         f"{_spread(get('tbt_measures_ms')) or '–'} / {_spread(get('tbt_frames_ms'))}",
                         f"{_spread(get('tbt_lighthouse_ms')) or '–'} / {_spread(get('inp_web_vitals_ms')) or '–'}"])
    page = context.run.meta.get("page", "the page")
    return "\n".join([f"### Your page: {page}\n", READING, _timeline(context, cells, label),
                      table.markdown(COLUMNS, rows_out)])
