"""Report section for family `starvation`: who waits behind a self-rescheduling callback (calls
before the timer and before the file read, against n), what a call costs on the runtime and on
each Node line measured in the same run, the seeds' blocked-timer and async-function experiments,
and the model's parity with each Node line on the ordering scenarios (parity_section.py) and on random
programs (random_section.py)."""
from ...rendering import grouping, stats, table
from ...runtimes import NODE_LINE, STALLBENCH, label, line as node_line, runtimes as ordered_runtimes
from ...rendering.markup import collapsed
from ...rendering.figures import figure, save
from . import parity_section, random_section

SCHEDULERS = ["nexttick", "microtask", "immediate", "timeout"]
LABELS = {"nexttick": "process.nextTick", "microtask": "queueMicrotask", "immediate": "setImmediate",
          "timeout": "setTimeout 0"}
COLOURS = {"nexttick": "#d62728", "microtask": "#ff7f0e", "immediate": "#2ca02c", "timeout": "#1f77b4"}
# What this section (with parity_section.py) reads of benches/starvation.cc, checked against the run's
# declarations (render.py).
CONSUMES = {
    "reschedule": ("calls_before_timer", "calls_before_io", "total_ms", "per_call_us"),
    "busy_timer": ("timer_fired_ms", "timer_late_ms"),
    "async_pbkdf2": ("returned_ms", "interval_ticks", "ticks_expected"),
    "parity": (*parity_section.METRICS, "startup_tail_ms"),
    "random_parity": random_section.METRICS,
}
PARAMETERS = {"reschedule": ("scheduler", "n", "runtime"), "parity": ("runtime",), "random_parity": ("runtime",)}
# Keys the harness adds to a row's parameters beyond its grid (a subcase): the binaries do not declare
# them, so they are named here for the test that holds every key read by name to a declaration.
SUBCASE_KEYS = {"parity": ("scenario",)}
# Runs made before random programs were compared (issue 24) have no random_parity: their report
# leaves that part out.
ADDED_LATER = ("random_parity",)
MODEL = STALLBENCH
NODE_MARKERS = ["s", "^", "D", "v", "P", "X"]
# What the runtime should manage beside Node for chains of TARGET_N calls: the nextTick chain in at
# least 10x less time, the setImmediate chain at least 2x less per loop iteration.
TARGETS = {"nexttick": 10.0, "immediate": 2.0}
TARGET_N = 100_000

READING = """\
A callback reschedules itself until it has run *n* times; just before its first call a 1 ms
timer and a file read (`fs.readFile`, through libuv's pool) are armed. The
first plot counts the calls made before each of them got a turn (symmetric log scale, so 0 shows
at the bottom; the dotted diagonal is *n*, "waited for the whole chain").

- **nextTick** and **microtask** chains never give the loop back: the tick and microtask queues
  are drained until empty after every callback, so the timer and the file read wait for all *n*
  calls, whatever *n* is. An endless chain would starve them for ever.
- **setImmediate** queues the next call for the next loop iteration's check phase; every iteration
  passes through the timers phase and polls for I/O, so the timer and the file read get in after a
  handful of calls (how many depends on how fast an iteration is, and on whether the millisecond
  clock has ticked when the first timers phase runs).
- **setTimeout 0** is a 1 ms timer per call: the 1 ms timer armed first runs before the first call,
  and every call costs at least a millisecond.

The second plot is what one call costs (for setImmediate: one loop iteration), on stallbench's
runtime and on each Node line the run chose (`--node`), running the same experiment in the same
run; the number over each Node bar is that line's time divided by the runtime's. The runtime is native code on libuv, the
model and not the thing itself: the point of the comparison is that it is cheap enough to
measure Node's orderings without adding its own noise.
"""


def _cells(rows, benchmark):
    """The distinct params of one benchmark, in first-seen order."""
    return list(dict.fromkeys(r.params for r in rows if r.benchmark == benchmark))


def _by_key(rows):
    """(scheduler, runtime) -> {n: params} for the reschedule benchmark."""
    return grouping.cells(rows, lambda p: (p["scheduler"], label(p)), lambda p: int(p["n"]), benchmark="reschedule")


def _runtimes(grouped) -> list[str]:
    """stallbench first, then the Node lines (node@18 ... node@system): runtimes.runtimes."""
    return ordered_runtimes([MODEL, *(who for _, who in grouped)])


def _style(who: str, runtimes: list[str]) -> dict:
    if who == MODEL:
        return dict(ls="-", marker="o")
    return dict(ls="--", marker=NODE_MARKERS[(runtimes.index(who) - 1) % len(NODE_MARKERS)], mfc="white")


def _node_note(context) -> str:
    nodes = context.run.meta.get("nodes") or []
    if not nodes:
        return "Node: no line chosen (--node none, or none installable): the Node cells are empty."
    return "Node: " + "; ".join(f"{n['runtime']} = {n['version']} (libuv {n['libuv']})" for n in nodes) + "."


def _waits_plot(context, grouped):
    fig, axes = figure(1, 2, figsize=(11, 4.2), sharey=True)
    ns = sorted({n for cells in grouped.values() for n in cells})
    runtimes = _runtimes(grouped)
    for ax, metric, title in zip(axes, ["calls_before_timer", "calls_before_io"],
                                 ["calls before the 1 ms timer ran", "calls before the file read's callback ran"]):
        by_cell = stats.values_by_cell(context.rows, metric)
        for (scheduler, who), cells in sorted(grouped.items(), key=lambda kv: (SCHEDULERS.index(kv[0][0]), runtimes.index(kv[0][1]))):
            xs = sorted(cells)
            values = [by_cell.get(cells[n], []) for n in xs]
            med = [stats.median(v) for v in values]
            # nextTick and microtask chains give the same counts: draw the first one wider so both show.
            ax.plot(xs, med, color=COLOURS[scheduler], label=f"{LABELS[scheduler]} ({who})",
                    lw=4 if scheduler == "nexttick" else 1.5, **_style(who, runtimes))
            for x, v in zip(xs, values):
                ax.scatter([x] * len(v), v, s=10, color=COLOURS[scheduler], alpha=0.3, lw=0)
        ax.plot(ns, ns, ":", color="grey", lw=1, label="n (waited for every call)")
        ax.set_xscale("log")
        ax.set_yscale("symlog", linthresh=1)
        ax.set_xlabel("n, calls in the chain (log)")
        ax.set_title(title, fontsize=10)
    axes[0].set_ylabel("calls (symmetric log; medians, dots: repetitions)")
    axes[1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle("Who starves behind a self-rescheduling callback", fontsize=11)
    return save(fig, context.out, "starvation-waits", "calls before the timer and the file read against n")


def _largest_common_n(grouped, scheduler):
    """The largest n the model and at least one Node line both ran (else the model's largest)."""
    runtime = set(grouped.get((scheduler, MODEL), {}))
    node = {n for (s, who), cells in grouped.items() if s == scheduler and who != MODEL for n in cells}
    both = runtime & node
    return max(both) if both else (max(runtime) if runtime else None)


def _cost_plot(context, grouped):
    runtimes = _runtimes(grouped)
    fig, ax = figure(figsize=(8 + len(runtimes), 4))
    positions, labels = [], []
    per_call_us = stats.values_by_cell(context.rows, "per_call_us")
    width = 0.8 / len(runtimes)
    for i, scheduler in enumerate(s for s in SCHEDULERS if (s, MODEL) in grouped):
        n = _largest_common_n(grouped, scheduler)
        model = None
        for k, who in enumerate(runtimes):
            params = grouped.get((scheduler, who), {}).get(n)
            values = per_call_us.get(params, []) if params else []
            if not values:
                continue
            median = stats.median(values)
            x = i + (k - (len(runtimes) - 1) / 2) * width
            ax.bar(x, median, width=width * 0.95, color=COLOURS[scheduler], alpha=1.0 if who == MODEL else 0.45,
                   hatch="" if who == MODEL else "//", edgecolor="black", lw=0.5)
            ax.scatter([x] * len(values), values, s=10, color="black", zorder=3)
            if who == MODEL:
                model = median
            elif model:
                ax.annotate(f"{node_line(who)}\n×{median / model:.1f}", (x, median), xytext=(0, 4),
                            textcoords="offset points", ha="center", fontsize=7)
        positions.append(i)
        labels.append(f"{LABELS[scheduler]}\nn={n:,}")
    ax.set_xticks(positions, labels, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("µs per call (log; bars: medians, dots: repetitions)")
    ax.set_title("Cost of one call: stallbench's runtime (solid) and each Node line (hatched), same run; "
                 "×: Node / stallbench", fontsize=10)
    return save(fig, context.out, "starvation-cost", "time per call per scheduler, runtime and each Node line")


COST_COLUMNS = ["chain", table.number("n"), "runtime", table.number("total", "ms"), table.number("per call", "µs"),
                table.number("/ stallbench"), "aim"]
WAITS_COLUMNS = ["chain", "runtime", table.number("n"), table.number("calls before timer"),
                 table.number("calls before file read"), table.number("total", "ms"), table.number("µs per call")]


def _cost_table(context, grouped):
    rows = []
    total_ms = stats.values_by_cell(context.rows, "total_ms")
    for scheduler in SCHEDULERS:
        n = _largest_common_n(grouped, scheduler)
        if n is None:
            continue
        model = None
        for who in _runtimes(grouped):
            params = grouped.get((scheduler, who), {}).get(n)
            values = total_ms.get(params, []) if params else []
            if not values:
                continue
            median = stats.median(values)
            model = median if who == MODEL else model
            ratio = median / model if who != MODEL and model else None
            aim = TARGETS.get(scheduler) if n == TARGET_N and who != MODEL else None
            verdict = "–" if aim is None else (f"≥ {aim:g}×: " + ("–" if ratio is None else ("met" if ratio >= aim else "**not met**")))
            rows.append([LABELS[scheduler], f"{n:,}", who,
                         f"{stats.fmt(median, 2)} ({stats.fmt(min(values), 2)}–{stats.fmt(max(values), 2)})",
                         stats.fmt(median * 1000 / n, 3), stats.fmt(ratio, 1), verdict])
    return table.markdown(COST_COLUMNS, rows)


def _waits_table(context, grouped):
    rows = []
    medians = stats.medians_by_cell(context.rows, [p for cells in grouped.values() for p in cells.values()],
                                    ("calls_before_timer", "calls_before_io", "total_ms", "per_call_us"))
    runtimes = _runtimes(grouped)
    for (scheduler, who), cells in sorted(grouped.items(), key=lambda kv: (SCHEDULERS.index(kv[0][0]), runtimes.index(kv[0][1]))):
        for n, params in sorted(cells.items()):
            m = medians[params]
            rows.append([LABELS[scheduler], who, f"{n:,}", stats.fmt(m["calls_before_timer"], 0),
                         stats.fmt(m["calls_before_io"], 0), stats.fmt(m["total_ms"], 2), stats.fmt(m["per_call_us"], 3)])
    return table.markdown(WAITS_COLUMNS, rows)


def _simple_table(context, benchmark, columns):
    """One row per cell: its parameters, then the median of each (metric, column, digits)."""
    cells = _cells(context.rows, benchmark)
    if not cells:
        return ""
    keys = [k for k in cells[0] if k not in ("runtime", NODE_LINE)]
    medians = stats.medians_by_cell(context.rows, cells, [metric for metric, _, _ in columns])
    rows = [[label(p), *(p[k] for k in keys), *(stats.fmt(medians[p][metric], digits) for metric, _, digits in columns)]
            for p in cells]
    return table.markdown(["runtime", *keys, *(column for _, column, _ in columns)], rows)


def sections(context) -> str:
    parts = []
    grouped = _by_key(context.rows)
    if grouped:
        parts += ["### Self-rescheduling callbacks (seed 000)\n", READING, _node_note(context) + "\n",
                  _waits_plot(context, grouped), _cost_plot(context, grouped),
                  "The runtime's own cost beside each Node line's, all measured in this run (medians, min–max of "
                  "the repetitions), at the largest n the runtime and a Node line both ran. The aims hold for "
                  f"n = {TARGET_N:,}: smaller chains "
                  "mostly measure Node's JIT warming up. On a shared machine take the ratio, not the absolute "
                  "times.\n",
                  _cost_table(context, grouped), collapsed("Every cell (medians)", _waits_table(context, grouped))]
    busy = _simple_table(context, "busy_timer", [("timer_fired_ms", table.number("timer fired", "ms"), 1),
                                                     ("timer_late_ms", table.number("late by", "ms"), 1)])
    if busy:
        parts += ["### A timer behind synchronous work (seed 002)\n",
                  "A timer is armed, then the loop thread works synchronously for `busy_ms`. The timer cannot run "
                  "until the work ends, so it fires about `busy_ms` after it was armed whatever its own delay: "
                  "late by about `busy_ms - timer_ms` (seed: a 50 ms timer behind 500 ms of work).\n", busy]
    hashing = _simple_table(context, "async_pbkdf2", [("returned_ms", table.number("promise returned after", "ms"), 1),
                                                      ("interval_ticks", table.number("interval ticks"), 0),
                                                      ("ticks_expected", table.number("ticks a free loop would make"), 0)])
    if hashing:
        parts += ["### An async function is not a thread (seed 000)\n",
                  "An `async` function with `calls` synchronous pbkdf2 derivations and no `await` inside runs to the "
                  "end before it returns its promise, while an interval should tick every `interval_ms`. The seed: "
                  "promise returned after 421 ms, 0 ticks. Any tick count above 0 would mean the loop got a turn.\n",
                  hashing]
    for section in (parity_section.section(context), random_section.section(context)):
        if section:
            parts.append(section)
    return "\n".join(parts)
