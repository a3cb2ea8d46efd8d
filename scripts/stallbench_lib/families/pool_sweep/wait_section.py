"""The pool-sweep report's comparison of waits across runtimes: per class and pool size, a job's first
wait for a thread in C++ and in each Node line beside the model's prediction of it (a figure and two
tables), and the model's error of that wait per runtime beside its error of latency."""
from . import pool_waits
from ... import runtimes
from ...rendering import stats, table
from ...rendering.markup import collapsed
from ...rendering.figures import figure, mark_cores, save, shared_legend

METRICS = ("pool_wait_p50_ms", "pool_wait_p99_ms", "predicted_pool_wait_p50_ms", "predicted_pool_wait_p99_ms")

READING = f"""\
A latency seen from JavaScript holds the main thread's delays as well as the pool's, so the model's
error against Node's latency says little about the pool. Every job therefore had a **canary** queued
just before it: a no-op on the pool (C++: `uv_queue_work`; Node: the Node-API canary addon) whose
start on a thread is when the job's first trip got one, since the queue is FIFO. That first wait is
measured the same way in every runtime, and the model predicts it: a no-op's wait in the shared queue,
or with a class kept in flight on every thread, the wait for the current wave to end. For a file read
it is the first of its four trips (Node 26 reads a small file in one trip); for a lookup, the wait in
libuv's main queue only (getaddrinfo may wait again in its slow-I/O queue, which a no-op never enters).
The model's error of the wait is taken where a job waited at least {pool_waits.QUEUE_FLOOR_MS:g} ms
(measured or predicted): below that the job found a thread free, and what it waited was a thread's
wake-up, which the model leaves out (on a machine whose cores are full, up to a time slice: it shows
in the measured p99). Its error of latency at the same points is beside it.
"""


def _figure(context, group, index):
    classes = list(dict.fromkeys(cls for s in group for cls in s.classes))
    fig, axes = figure(1, len(classes), figsize=(3.8 * len(classes), 3.7), squeeze=False, sharey=True)
    colours = {s.runtime: "black" if s.runtime == "stallbench" else f"C{i}" for i, s in enumerate(group)}
    sizes = sorted({pool for s in group for pool in s.sizes})
    for ax, cls in zip(axes[0], classes):
        for sweep in group:
            colour = colours[sweep.runtime]
            ax.plot(sweep.sizes, sweep.series(cls, "pool_wait_p50_ms"), marker="o", color=colour,
                    lw=2 if sweep.runtime == "stallbench" else 1.2, label=f"{sweep.runtime} measured")
            ax.plot(sweep.sizes, sweep.series(cls, "predicted_pool_wait_p50_ms"), ls=":", lw=1.8, color=colour,
                    label=f"{sweep.runtime} model")
        ax.axhline(pool_waits.QUEUE_FLOOR_MS, color="grey", ls="-.", lw=0.8, label="a thread was free below")
        # Linear below the floor (a free thread's wake-up, the model's 0), logarithmic above it.
        ax.set_yscale("symlog", linthresh=pool_waits.QUEUE_FLOOR_MS)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [str(s) for s in sizes])
        mark_cores(ax, context.cores)
        ax.set_title(cls, fontsize=10)
        ax.set_xlabel("UV_THREADPOOL_SIZE")
    axes[0, 0].set_ylabel("first wait for a thread, p50 (ms)")
    fig.suptitle(f"Pool wait, measured and modelled, every runtime: mix {group[0].mix.as_command_line()}",
                 fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, f"pool-sweep-pool-wait-{index}",
                "a job's first wait for a thread against pool size, every runtime, measured and modelled")


ERROR_COLUMNS = ["runtime", *map(table.number, ("pool wait p50 (where a job waited)", "latency p50 (same points)", "points",
                                                "latency p50 (every point)", "points"))]


def _waits_columns(names):
    return ["class", table.number("pool"), *map(table.number, names)]


def sections(context, found) -> list[str]:
    groups = pool_waits.groups(found)
    without = [s.runtime for s in found if runtimes.line(s.runtime) and not pool_waits.has_waits(s)]
    parts = []
    if groups:
        parts += ["#### Pool wait: C++, Node and the model\n", READING]
    fmt = lambda v: stats.fmt(v, 2)  # noqa: E731
    for index, group in enumerate(groups):
        names = [s.runtime for s in group]
        parts.append(_figure(context, group, index))
        parts.append(f"Mix `{group[0].mix.as_command_line()}`. The model's median absolute error, per runtime:\n")
        parts.append(table.markdown(ERROR_COLUMNS, pool_waits.error_rows(group)))
        parts.append("First wait for a thread, p50, ms: measured (model).\n")
        parts.append(table.markdown(_waits_columns(names), pool_waits.rows(group, "p50", fmt)))
        p99 = table.markdown(_waits_columns(names), pool_waits.rows(group, "p99", fmt))
        parts.append(collapsed("First wait for a thread, p99, every runtime", "Measured (model), ms.\n\n" + p99))
    if without:
        parts.append(f"\nNo pool wait for {', '.join(dict.fromkeys(without))}: the Node cells ran without the pool "
                     "canary addon (it was not in this build: it needs a pinned Node line's Node-API headers), latency only.\n")
    return parts
