"""Report section for family `pool-sweep`: per class, latency percentiles against pool size
(measured solid, predicted dashed, target and core count marked), throughput and CPU use against
pool size, the model's error, the recommendation, and the slow-DNS reproduction."""

from . import mixes, targets, wait_choice, wait_section
from .recommend import recommend
from .summary import APP_PER_SIZE, app_sweeps, model_error, sweeps
from ...rendering import grouping, stats, table
from ...rendering.markup import collapsed
from ...rendering.figures import corner_legend, figure, mark_cores, save, shared_legend

# What this section (with summary.py and recommend.py) reads of benches/pool_sweep.cc,
# checked against the run's declarations (render.py); `app` is `sweep-pool --app`'s, measured by it.
CONSUMES = {
    "open-loop": ("latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms", "queue_wait_p50_ms",
                  "queue_wait_p99_ms", "service_p50_ms", "service_p99_ms", "service_alone_ms", "throughput_per_s",
                  "offered_per_s", "completed", "unfinished", "predicted_p50_ms", "predicted_p99_ms",
                  "predicted_enough_cores_p50_ms", "predicted_throughput_per_s", "predicted_cpu_util", "cpu_util",
                  "machine_cpu_util", "effective_cores", "busy_cores_delay_ms", *wait_section.METRICS),
    "slow-dns": ("read_latency_ms", "lookups_drained_ms", "max_concurrent_lookups", "read_before_drain"),
    "app": ("latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms", "service_alone_ms",
            "throughput_per_s", "offered_per_s", "queue_wait_mean_ms", "queue_wait_second_mean_ms", "pool_utilization",
            "pool_wait_per_request_ms", "pool_wait_per_request_second_ms", *APP_PER_SIZE),
}
ADDED_LATER = ("app",)  # a run before `sweep-pool --app`'s benchmark was declared in C++ has none
PARAMETERS = {"slow-dns": ("lookup_kind", "pool"), "app": ("pool", "rate", "duration")}
PERCENTILE_STYLE = [("latency_p50_ms", "p50", "o", 1.0), ("latency_p95_ms", "p95", "^", 0.55),
                    ("latency_p99_ms", "p99", "s", 0.8), ("latency_max_ms", "max", "x", 0.35)]

READING = """\
Every pool size ran in its own process (libuv reads `UV_THREADPOOL_SIZE` once) with the same
open-loop arrivals: each class's jobs arrived at random at its rate, whether or not earlier jobs
had finished, for the whole window; jobs still out afterwards had a drain period, and what did not
finish by its end counts as *unfinished*. A job's **latency** runs from its arrival to the loop
running its last callback; its **service** is the time its steps held pool threads; **queue wait**
is the rest (waiting in libuv's queue, and for the loop between a file read's four steps). In Node,
where a thread's time cannot be seen, a job's queue wait runs from its arrival until its canary (a
no-op queued just before it) started on a thread, and only for classes of one trip through the
queue, whose first wait is their whole wait; its service is the rest of its latency, the callback's
delivery included.

In the latency plot each panel is one class: solid lines are measured percentiles, dashed lines
the queueing model's p50 and p99, the dotted grey line the model's p50 on a machine with a core for
every thread (no CPU sharing). The horizontal line is the class's target, the dashed vertical line
the core count, the green band the recommended size; one legend below the panels names them all.
Read a class's curve from the left: where it falls steeply, threads were the bottleneck (jobs
waited in the queue); where it flattens or rises again, the cores are (more threads only share
them). A slow-I/O class (lookup, reverse) is
limited to (threads+1)/2 threads at once, so its curve keeps falling after the others flatten.
"""


def _log2_axis(ax, sizes, cores, chosen):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [str(s) for s in sizes])
    mark_cores(ax, cores)
    if chosen:
        ax.axvspan(chosen / 1.15, chosen * 1.15, color="tab:green", alpha=0.18, lw=0, label=f"recommended: {chosen}")


def _latency_plot(context, sweep, rec, index):
    n = len(sweep.classes)
    fig, axes = figure(1, n, figsize=(4.0 * n, 3.9), squeeze=False)
    for ax, cls in zip(axes[0], sweep.classes):
        for metric, label, marker, alpha in PERCENTILE_STYLE:
            ax.plot(sweep.sizes, sweep.series(cls, metric), marker=marker, color="tab:blue", alpha=alpha, label=label)
        ax.plot(sweep.sizes, sweep.series(cls, "predicted_p50_ms"), ls="--", color="tab:orange", label="model p50")
        ax.plot(sweep.sizes, sweep.series(cls, "predicted_p99_ms"), ls="--", color="tab:red", label="model p99")
        ax.plot(sweep.sizes, sweep.series(cls, "predicted_enough_cores_p50_ms"), ls=":", color="grey",
                label="model p50, a core per thread")
        target = rec.targets.get(cls)
        if target:
            ax.axhline(target.ms, color="tab:purple", ls="-.", lw=1, label=f"target {target.percentile}")
        _log2_axis(ax, sweep.sizes, context.cores, rec.size)
        ax.set_yscale("log")
        ax.set_title(cls, fontsize=10)
        ax.set_xlabel("UV_THREADPOOL_SIZE")
    axes[0, 0].set_ylabel("latency (ms, log)")
    fig.suptitle(f"Latency against pool size: {sweep.title()}", fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, f"pool-sweep-latency-{index}", "latency percentiles against pool size per class")


def _throughput_plot(context, sweep, rec, index):
    fig, axes = figure(1, 2, figsize=(10, 3.8), squeeze=False)
    ax = axes[0, 0]
    for i, cls in enumerate(sweep.classes):
        colour = f"C{i}"
        ax.plot(sweep.sizes, sweep.series(cls, "throughput_per_s"), marker="o", color=colour, label=cls)
        ax.plot(sweep.sizes, sweep.series(cls, "predicted_throughput_per_s"), ls="--", color=colour)
        ax.plot(sweep.sizes, sweep.series(cls, "offered_per_s"), ls=":", color=colour, lw=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("jobs per second (log)")
    for style, what in (("-", "completed"), ("--", "model"), (":", "offered")):  # the line styles, in the legend
        ax.plot([], [], ls=style, color="grey", label=what)
    ax = axes[0, 1]
    per = [sweep.per_size.get(s, {}) for s in sweep.sizes]
    ax.plot(sweep.sizes, [p.get("cpu_util") for p in per], marker="o", color="tab:blue", label="this process")
    ax.plot(sweep.sizes, [p.get("predicted_cpu_util") for p in per], ls="--", color="tab:blue", label="model")
    ax.plot(sweep.sizes, [p.get("machine_cpu_util") for p in per], marker=".", color="grey", label="whole machine")
    ax.plot(sweep.sizes, [(p.get("effective_cores") or 0) / context.cores if context.cores else None for p in per],
            ls=":", color="black", label="cores really free / cores")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("CPU utilisation (share of the cores)")
    for ax in axes[0]:
        _log2_axis(ax, sweep.sizes, context.cores, rec.size)
        ax.set_xlabel("UV_THREADPOOL_SIZE")
    fig.suptitle(f"Throughput and CPU use against pool size: {sweep.title()}", fontsize=11)
    fig.tight_layout()
    for ax in axes[0]:  # the panels show different things: a legend each
        corner_legend(ax, fontsize=7)
    return save(fig, context.out, f"pool-sweep-throughput-{index}", "throughput and CPU utilisation against pool size")


TABLE_COLUMNS = ["class", *map(table.number, ("pool", "p50", "p95", "p99", "max", "wait p50 / p99", "service p50 / p99",
                                                "alone", "done/s (offered)", "unfinished", "model p50 / p99", "p50 error")),
                 "target"]
APP_COLUMNS = [*map(table.number, ("pool", "p50", "p99", "max", "alone", "pool busy",
                                   "pool wait: typical second (95% interval)", "mean", "one job's wait for a thread, p99",
                                   "loop delay p99", "loop use", "done/s (offered)", "unfinished"))]
RUNTIMES_COLUMNS = ["runtime", table.number("recommended pool"), table.number("model p50 error (median)"),
                    table.number("points")]
SLOW_DNS_COLUMNS = ["kind", table.number("pool"), table.number("read", "ms"), table.number("last lookup", "ms"),
                    table.number("lookups at once"), table.number("cap (pool+1)/2"), table.number("read first")]


def _table(sweep, rec):
    rows = []
    for cls in sweep.classes:
        for pool in sweep.sizes:
            c = sweep.at(pool, cls)
            if c is None:
                continue
            g = lambda m: stats.fmt(c.get(m), 2)  # noqa: E731
            measured, predicted = c.get("latency_p50_ms"), c.get("predicted_p50_ms")
            error = f"{(predicted - measured) / measured:+.0%}" if measured and predicted is not None else "–"
            verdict = next(v for v in rec.verdicts if v.pool == pool)
            met = "met" if not any(k == cls for k, _ in verdict.problems) else "**missed**"
            rows.append([cls, pool, g("latency_p50_ms"), g("latency_p95_ms"), g("latency_p99_ms"), g("latency_max_ms"),
                         f"{g('queue_wait_p50_ms')} / {g('queue_wait_p99_ms')}",
                         f"{g('service_p50_ms')} / {g('service_p99_ms')}", g("service_alone_ms"),
                         f"{stats.fmt(c.get('throughput_per_s'))} ({stats.fmt(c.get('offered_per_s'))})",
                         stats.fmt(c.get("unfinished"), 0), f"{g('predicted_p50_ms')} / {g('predicted_p99_ms')}", error, met])
    return table.markdown(TABLE_COLUMNS, rows)


def _in_flight_paragraph(sweep, cores):
    """Seed 000's headline read off a sweep with a class kept in flight: what the other classes
    waited with a pool no larger than the jobs in flight, and what was left once it was larger."""
    parts = []
    if sweep.runtime == "app":
        return parts
    for busy, jobs in sweep.mix.in_flight.items():
        background = sweep.at(jobs, busy)
        job_ms = background.get("service_p50_ms") if background else None  # one job's time in the pool, sharing the cores
        above = next((s for s in sweep.sizes if s > jobs), None)
        if not job_ms or above is None:
            continue
        delay = sweep.per_size.get(above, {}).get("busy_cores_delay_ms")
        for cls in sweep.classes:
            at, past = sweep.at(jobs, cls), sweep.at(above, cls)
            if cls == busy or not at or not past:
                continue
            parts.append(
                f"- **{cls} with {jobs} × {busy} always in flight.** At pool {jobs} its median latency was "
                f"{stats.fmt(at.get('latency_p50_ms'))} ms and its p99 {stats.fmt(at.get('latency_p99_ms'))} ms: "
                f"{at.get('latency_p50_ms') / job_ms:.1f} and {at.get('latency_p99_ms') / job_ms:.1f} times one {busy} "
                f"job's time in the pool ({stats.fmt(job_ms)} ms, the {jobs} jobs sharing the cores), as it waited for "
                f"a job to finish before its trips through the queue. At pool {above}, one thread more than the jobs, "
                f"it had a thread at once: median {stats.fmt(past.get('latency_p50_ms'), 2)} ms. With a core for every "
                f"thread the model puts that at {stats.fmt(past.get('predicted_enough_cores_p50_ms'), 2)} ms; what "
                f"remains on this machine's {cores} cores is CPU sharing: the {jobs} jobs keep every core computing, "
                "so the loop woken by an arrival (and the thread woken for a step) first waits for a core"
                + (f" (measured just for that case: {stats.fmt(delay, 2)} ms a job)" if delay is not None else "") + ".")
    return parts


ARRIVALS = {
    "poisson": "at random moments (Poisson arrivals, as from many independent users; the same moments at every "
               "size of a repetition)",
    "fixed": "on a fixed timer, one every 1/rate seconds (`--arrivals fixed`: bursts never happen, so a pool too "
             "small for real traffic can look as good as any)",
    None: "on a fixed timer (a run made before the arrivals were chosen)",
}

APP_READING = """\
`sweep-pool --app` started the program once per pool size with `UV_THREADPOOL_SIZE` set, waited
until its URL answered, timed a few requests one at a time on the idle program (*alone*), then
sent requests at the rate for the duration, {arrivals}, each when it was due whatever was still
outstanding, so a slow program could not slow the offered load down; latency runs from when a
request was due. The program's CPU (its whole process
group) and its peak resident memory were read from /proc meanwhile; the load generator runs on the
same machine and its CPU is part of *whole machine*. Requests not answered by the end of the drain
period are *unfinished*; failed, timed-out and 4xx/5xx answers are *errors*.

With the pool probe in the program (the default; `--no-probe` leaves it out), each size also says
what happened inside it: how busy libuv's threads were and how many of the program's jobs waited for
one (libuv's own counters, sampled at random moments), and from them, by Little's law, how long each
request's pool work waited for threads in all (jobs waiting / requests a second: work libuv splits
into many short jobs counts in full); how long one pool job waited (the probe's canaries, no-op pool
jobs submitted at random moments); and how late its event loop ran. In the pool-wait plot each point
is a size's *typical second* (the median over the seconds of the load of each second's wait per
request; where libuv's pool could not be read, each second's mean canary wait) with its 95% interval,
the dashed line one canary's p99; the shaded band is what a wait must exceed to matter (a
tenth of one request's latency alone, at least 1 ms) above the best size. A size whose interval lies
above that band, compared with a larger size, had too few threads; sizes whose intervals overlap
cannot be told apart on this machine, and the smallest of them is recommended.
"""


def _app_wait_plot(context, sweep, rec, index):
    """Your program at each size: requests' latency from outside, pool wait and loop delay inside."""
    waits = wait_choice.measured(sweep)
    if not waits:
        return ""
    fig, axes = figure(1, 2, figsize=(10, 3.9), squeeze=False)
    ax = axes[0, 0]
    for metric, label, marker, alpha in PERCENTILE_STYLE:
        ax.plot(sweep.sizes, sweep.series("requests", metric), marker=marker, color="tab:blue", alpha=alpha, label=label)
    ax.set_yscale("log")
    ax.set_ylabel("request latency (ms, log)")
    ax.set_title("requests, from outside", fontsize=10)
    ax = axes[0, 1]
    typical = [w.interval for w in waits]
    what = "pool wait per request (Little's law)" if waits[0].per_request else "pool wait"
    ax.errorbar([w.pool for w in waits], [max(i.value, 0.01) for i in typical],
                yerr=[[max(i.value - i.low, 0) for i in typical], [max(i.high - i.value, 0) for i in typical]],
                marker="o", color="tab:red", capsize=3, label=f"{what}, typical second (95% interval)")
    ax.plot(sweep.sizes, sweep.series("requests", "queue_wait_p99_ms"), ls="--", color="tab:red",
            label="one job's wait p99 (canaries)")
    ax.plot(sweep.sizes, [sweep.per_size.get(p, {}).get("loop_delay_p99_ms") for p in sweep.sizes], ls=":",
            color="black", label="loop delay p99")
    floor = min(i.value for i in typical)
    limit = wait_choice.threshold_ms(sweep.at(sweep.sizes[0], "requests").get("service_alone_ms"))
    ax.axhspan(max(floor, 0.01), floor + limit, color="grey", alpha=0.15, lw=0,
               label="within what does not matter of the best size")
    ax.set_yscale("log")
    ax.set_ylabel("ms, log")
    ax.set_title("inside the program (pool probe)", fontsize=10)
    for ax in axes[0]:
        _log2_axis(ax, sweep.sizes, context.cores, rec.size)
        ax.set_xlabel("UV_THREADPOOL_SIZE")
    fig.suptitle(f"Your program against pool size: {sweep.title()}", fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, f"pool-sweep-app-wait-{index}", "request latency, pool wait and loop delay against "
                "pool size")


def _app_table(sweep):
    rows = []
    waits = {w.pool: w for w in wait_choice.measured(sweep) or []}
    for pool in sweep.sizes:
        c, per = sweep.at(pool, "requests"), sweep.per_size.get(pool, {})
        if c is None:
            continue
        g = lambda m: stats.fmt(c.get(m), 2)  # noqa: E731
        w = waits.get(pool)
        typical = f"{stats.fmt(w.interval.value, 2)} ({stats.fmt(w.interval.low, 2)}–{stats.fmt(w.interval.high, 2)})" if w else "–"
        use, busy = per.get("loop_utilization"), c.get("pool_utilization")
        rows.append([pool, g("latency_p50_ms"), g("latency_p99_ms"), g("latency_max_ms"), g("service_alone_ms"),
                     None if busy is None else f"{busy:.0%}", typical, stats.fmt(w.mean, 2) if w else "–",
                     g("queue_thread_wait_p99_ms" if c.get("queue_thread_wait_p99_ms") is not None else "queue_wait_p99_ms"),
                     stats.fmt(per.get("loop_delay_p99_ms"), 2),
                     None if use is None else f"{use:.0%}",
                     f"{stats.fmt(c.get('throughput_per_s'))} ({stats.fmt(c.get('offered_per_s'))})",
                     stats.fmt(c.get("unfinished"), 0)])
    return table.markdown(APP_COLUMNS, rows)


def _model_error_text(sweep, error):
    if error.median_abs is None:
        return []
    worst = max(error.points, key=lambda p: abs(p[4]))
    return [f"**Model error** ({sweep.title()}): the median absolute error of the predicted p50 is "
            f"**{error.median_abs:.0%}** over {len(error.points)} points (sizes × classes); the worst is "
            f"{worst[1]} at pool {worst[0]}: predicted {stats.fmt(worst[3], 2)} ms, measured "
            f"{stats.fmt(worst[2], 2)} ms. The model knows only each class's alone service time, the "
            "arrival rates, the pool size and the cores that were free around the run; load from other "
            "work that changes during the run is noise it cannot see.\n"]


def _sweep_sections(context, sweep, index, given):
    rec = recommend(sweep, given, context.cores)
    mix = mixes.named().get(sweep.mix.name)
    parts = [f"### {sweep.title()[0].upper()}{sweep.title()[1:]}\n"]
    if sweep.runtime == "app":
        meta = context.run.meta
        parts.append(f"`{meta.get('app')}` driven at `{meta.get('url')}`.\n")
    elif mix:
        parts.append(f"{mix['mix']}: {mix['analysis']}\n")
    parts.append(f"**{rec.headline()}**\n")
    parts += [f"- {r}" for r in rec.reasons]
    parts += _in_flight_paragraph(sweep, context.cores)
    parts.append("\nTargets: " + "; ".join(t.text() for t in rec.targets.values()) + ".\n")
    if sweep.runtime == "app" and wait_choice.measured(sweep):
        parts.append(_app_wait_plot(context, sweep, rec, index))
        parts.append(_throughput_plot(context, sweep, rec, index))
        parts.append(collapsed("Medians per pool size", "Medians over repetitions, in ms. *alone*: one request at a "
                               "time on the idle program.\n\n" + _app_table(sweep)))
    elif sweep.sizes and sweep.classes:  # else every cell failed: nothing to draw
        parts.append(_latency_plot(context, sweep, rec, index))
        parts.append(_throughput_plot(context, sweep, rec, index))
        parts += _model_error_text(sweep, model_error(sweep))
        parts.append(collapsed("Medians per class and pool size", "Medians over repetitions, in ms. *alone*: one "
                               "job's service time on the idle pool (a Node sweep: one job's latency alone, as "
                               "JavaScript sees it; an --app sweep: one request's).\n\n" + _table(sweep, rec)))
    for failure in sweep.failures:
        parts.append(f"- failed: {failure}")
    return parts


def _runtimes_summary(found, given, cores):
    """The same mix in C++ and in each Node line: the recommendation and the model's error per runtime."""
    by_mix = {}
    for sweep in found:
        by_mix.setdefault(sweep.mix, []).append(sweep)
    lines = []
    for mix, group in by_mix.items():
        if len(group) < 2:
            continue
        rows = []
        for sweep in group:
            rec, error = recommend(sweep, given, cores), model_error(sweep)
            median = f"{error.median_abs:.0%}" if error.median_abs is not None else None
            rows.append([sweep.runtime, rec.size or "none", median, len(error.points)])
        lines += [f"Mix `{mix.as_command_line()}` in every runtime (same arrivals, same seeds):\n",
                  table.markdown(RUNTIMES_COLUMNS, rows)]
    return lines


def _open_loop_sections(context):
    given = targets.from_meta(context.run.meta.get("targets"))
    found = sweeps(context.rows)
    parts = _runtimes_summary(found, given, context.cores)
    parts += wait_section.sections(context, found)
    for index, sweep in enumerate(found):
        parts += _sweep_sections(context, sweep, index, given)
    return parts


SLOW_DNS_READING = """\
nodejs/node#8436: a burst of lookups that each take the delay (a DNS server of our own, inside a
private network namespace), then one file read. With real lookups (`getaddrinfo`, slow I/O) libuv
runs at most (pool+1)/2 of them at once, so from pool 2 the read finds a free thread and finishes
at once while the lookups drain in waves; with the same waits as ordinary pool work
(`blocking-work`, what lookups were before libuv capped them) the read waits for all of them.
"""


def _slow_dns_section(context):
    rows = [r for r in context.rows if r.benchmark == "slow-dns" and r.status == "ok"]
    if not rows:
        return []
    by = grouping.values(rows, lambda p: (p["lookup_kind"], int(p["pool"])))
    kinds = sorted({k for k, _ in by})
    pools = sorted({p for _, p in by})
    fig, ax = figure(1, 1, figsize=(6.5, 3.8))
    for kind, colour in zip(kinds, ("tab:green", "tab:red")):
        pts = [(p, stats.median(by[(kind, p)]["read_latency_ms"])) for p in pools if (kind, p) in by]
        ax.plot([p for p, _ in pts], [v for _, v in pts], marker="o", color=colour, label=f"file read, {kind}")
        pts = [(p, stats.median(by[(kind, p)]["lookups_drained_ms"])) for p in pools if (kind, p) in by]
        ax.plot([p for p, _ in pts], [v for _, v in pts], ls="--", color=colour, label=f"last lookup, {kind}")
    ax.set_yscale("log")
    ax.set_ylabel("completion after the burst (ms, log)")
    _log2_axis(ax, pools, context.cores, None)
    ax.set_xlabel("UV_THREADPOOL_SIZE")
    corner_legend(ax)
    parts = ["### Slow DNS (nodejs/node#8436)\n", SLOW_DNS_READING,
             save(fig, context.out, "pool-sweep-slow-dns", "file read behind slow lookups against pool size")]
    shown = [[kind, pool, stats.fmt(stats.median(m["read_latency_ms"])), stats.fmt(stats.median(m["lookups_drained_ms"])),
              stats.fmt(max(m["max_concurrent_lookups"]), 0), (pool + 1) // 2 if kind == "getaddrinfo" else None,
              f"{sum(m['read_before_drain']):.0f}/{len(m['read_before_drain'])}"]
             for kind in kinds for pool in pools for m in [by.get((kind, pool))] if m]
    parts += table.lines(SLOW_DNS_COLUMNS, shown)
    if "getaddrinfo" not in kinds:
        parts.append("\nThe real-lookup half did not run here: it needs root to create a private network and mount "
                     "namespace (unshare).")
    return parts


def sections(context) -> str:
    parts = []
    if any(r.benchmark == "open-loop" for r in context.rows):
        parts += ["### UV_THREADPOOL_SIZE sweep\n", READING]
        parts += _open_loop_sections(context)
    apps = app_sweeps(context.rows)
    if apps:
        arrivals = (context.run.meta.get("load_generator") or {}).get("arrivals")
        parts += ["### UV_THREADPOOL_SIZE sweep of your program\n",
                  APP_READING.format(arrivals=ARRIVALS.get(arrivals, arrivals))]
        given = targets.from_meta(context.run.meta.get("targets"))
        for index, sweep in enumerate(apps):
            parts += _sweep_sections(context, sweep, f"app-{index}", given)
    for note in context.run.meta.get("notes", []):
        parts.append(f"- {note}")
    parts += _slow_dns_section(context)
    return "\n".join(parts) + "\n"
