"""Report section for family `pool`: completion timelines per pool size, latency against pool
size with the core count marked, C++ and each Node line side by side (latency and the canaries'
queue wait), and the medians behind them."""
from ...rendering import grouping, stats, table
from ...runtimes import STALLBENCH, label as runtime_label, order as runtime_order
from ...rendering.markup import collapsed
from ...rendering.figures import CLASS_COLOURS, figure, mark_cores, save, shared_legend

BENCHMARK = "saturation"
PROBES = [("fs", "fs_latency_ms", "file read"), ("dns", "dns_latency_ms", "dns lookup"),
          ("tcp", "tcp_latency_ms", "HTTP over TCP")]

READING = """\
Each repetition submits `jobs` pbkdf2 jobs to libuv's pool and, in the same instant, one file
read, one `getaddrinfo("localhost")` and one HTTP GET over loopback to a server on the same loop.
The **timeline** shows when each completed (one mark per job or request, per repetition; the
large marks are medians, pbkdf2 by completion rank). Dotted lines are multiples of one pbkdf2 job
run alone, so waits can be read in jobs. File and DNS work share the pool with pbkdf2, so with a
pool no larger than the job count they complete only after a job frees a thread; TCP is served by
the OS's async I/O and completes at once. With more jobs than threads the jobs finish in waves.

On a machine with fewer cores than pool threads the threads share the cores: a larger pool lets
the file read start at once but it then competes with every pbkdf2 thread (and the loop thread)
for CPU time, so its latency does not fall to zero. The **latency against pool size** plot marks
the core count for that reason. `pool_efficiency` is pbkdf2 throughput relative to the physical
ceiling, min(pool, cores, jobs) jobs at a time each taking one job's alone time: near 1 means the
cores were fully used.

`runtime` node (shown node@LINE: the line is the cell's `node_line`) runs the same experiment in that Node line (one Node process per pool size and
repetition), its HTTP request made with `fetch` or `http.get` (`client`), plus a
`dns.Resolver.resolve4` against a DNS server of ours on 127.0.0.1: c-ares sends and reads it on the
loop thread, so it never waits for a pool thread. The **runtimes** figure puts the C++ cell and every
Node line side by side: the file read and the lookup wait behind the first pbkdf2 in every runtime
while the pool is no larger than the jobs; the HTTP request differs by runtime, because in Node it is
JavaScript on the main thread, which shares the cores with the pool threads (`tcp_alone_ms` is the
same request on an idle process: the client's own cost).

A latency seen from JavaScript holds the main thread's delays too. What the pool itself did is in
the **queue wait**: a canary, a no-op on the pool queued just before the file read and just before
the lookup, starts when a thread takes it, and the request behind it (the queue is FIFO) right
after: its wait is the request's wait for a thread. The C++ cell queues it with `uv_queue_work`,
a Node cell with the Node-API canary addon, so the two runtimes' waits are measured the same way.
For the lookup it is the wait in libuv's main queue (getaddrinfo, slow I/O, may wait again in a
queue of its own).
"""

RUNTIME_PROBES = [("fs_latency_ms", "file read"), ("fs_queue_wait_ms", "file read's wait for a thread"),
                  ("dns_latency_ms", "dns.lookup"), ("tcp_latency_ms", "HTTP request"),
                  ("resolve4_latency_ms", "resolve4 (no pool)")]
TABLE_METRICS = ("fs_latency_ms", "dns_latency_ms", "tcp_latency_ms", "tcp_alone_ms", "resolve4_latency_ms",
                 "pbkdf2_alone_ms", "pool_efficiency")
WAITS = ("fs_queue_wait_ms", "dns_queue_wait_ms")
# What this section reads of benches/pool.cc, checked against the run's declarations (render.py).
CONSUMES = {BENCHMARK: ("pbkdf2_done_ms", *TABLE_METRICS, *WAITS)}
PARAMETERS = {BENCHMARK: ("digest", "iters", "jobs", "pool")}


def _runtime_label(p: dict) -> str:
    runtime = runtime_label(p) if "runtime" in p else STALLBENCH
    return runtime if runtime == "stallbench" else f"{runtime} {p.get('client', '')}".strip()


def _runtime_order(label: str):
    """The runtimes in their one order (runtimes.order), each client in turn."""
    runtime, _, client = label.partition(" ")
    return (runtime_order(runtime), client)


def _scenarios(rows):
    """(digest, iters, jobs) -> {runtime label: {pool: params}}, runtimes in _runtime_order."""
    grouped = grouping.cells(rows, lambda p: (p["digest"], int(p["iters"]), int(p["jobs"])), _runtime_label,
                             lambda p: int(p["pool"]))
    return {k: dict(sorted(v.items(), key=lambda kv: _runtime_order(kv[0]))) for k, v in sorted(grouped.items())}


def _first_runtime(scenarios):
    """(digest, iters, jobs) -> {pool: params} of the first runtime (the C++ cell when it ran)."""
    return {k: next(iter(runtimes.values())) for k, runtimes in scenarios.items()}


def _ranked_pbkdf2(rows, params):
    """Per repetition, the pbkdf2 completion times sorted: rank k is the k-th job to finish."""
    return [sorted(v) for v in stats.per_repetition(rows, params, "pbkdf2_done_ms").values()]


def _timeline(context, scenario, pools, alone):
    digest, iters, jobs = scenario
    fig, axes = figure(len(pools), 1, figsize=(9, 1.3 + 1.25 * len(pools)), sharex=True, squeeze=False)
    lanes = ["pbkdf2", "fs", "dns", "tcp"]
    for ax, (pool, params) in zip(axes[:, 0], sorted(pools.items())):
        ranked = _ranked_pbkdf2(context.rows, params)
        for rep in ranked:
            ax.scatter(rep, [0] * len(rep), s=14, color=CLASS_COLOURS["pbkdf2"], alpha=0.25, lw=0)
        if ranked:
            medians = [stats.median([rep[k] for rep in ranked if k < len(rep)]) for k in range(jobs)]
            ax.scatter(medians, [0] * len(medians), s=70, marker="|", color=CLASS_COLOURS["pbkdf2"], lw=2.5)
        for lane, (cls, metric, _) in enumerate(PROBES, 1):
            values = stats.values_by_cell(context.rows, metric).get(params, [])
            ax.scatter(values, [lane] * len(values), s=14, color=CLASS_COLOURS[cls], alpha=0.35, lw=0)
            if values:
                ax.scatter([stats.median(values)], [lane], s=90, marker="D", color=CLASS_COLOURS[cls])
        if alone:
            for k in range(1, jobs + 1):
                ax.axvline(k * alone, color="grey", ls=":", lw=0.8)
        ax.set_yticks(range(len(lanes)), lanes)
        ax.set_ylim(-0.7, len(lanes) - 0.3)
        ax.set_title(f"pool {pool} · {context.cores} cores", fontsize=9, loc="left")
    axes[-1, 0].set_xlabel("completion time since submission (ms); dotted: multiples of one job alone "
                           f"({stats.fmt(alone, 0)} ms)")
    fig.suptitle(f"{jobs} × pbkdf2 {iters:,} {digest}: who waits behind the pool", fontsize=11)
    return save(fig, context.out, f"pool-timeline-{digest}-{iters}-{jobs}",
                f"completion timeline, {jobs} jobs of {iters} iterations")


def _latency_vs_pool(context, scenarios):
    by_metric = {metric: stats.values_by_cell(context.rows, metric) for _, metric, _ in PROBES}
    if not any(by_cell.get(p) for by_cell in by_metric.values() for pools in scenarios.values() for p in pools.values()):
        return "No file, DNS or TCP latency was measured: every cell of these scenarios failed.\n"
    fig, axes = figure(1, len(scenarios), figsize=(4.2 * len(scenarios), 3.8), squeeze=False, sharey=True)
    for ax, ((digest, iters, jobs), pools) in zip(axes[0], scenarios.items()):
        sizes = sorted(pools)
        for cls, metric, label in PROBES:
            measured, med, spread = stats.median_and_range(by_metric[metric], [(s, pools[s]) for s in sizes])
            ax.errorbar(measured, med, yerr=spread, marker="o", color=CLASS_COLOURS[cls], label=label, capsize=3)
        mark_cores(ax, context.cores)
        ax.axvline(jobs, color="grey", ls=":", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.set_xlabel("UV_THREADPOOL_SIZE (dotted: job count)")
        ax.set_title(f"{jobs} × {iters:,} {digest}", fontsize=9)
    axes[0, 0].set_ylabel("latency (ms, log)")
    fig.suptitle("File, DNS and TCP latency against pool size (median, min–max)", fontsize=11)
    fig.tight_layout()
    shared_legend(fig)
    return save(fig, context.out, "pool-latency-vs-size", "latency against pool size")


def _share(rows, params, test):
    """In how many repetitions `test(first_pbkdf2, fs, dns, tcp)` held: 'k/n'."""
    firsts = {rep: min(v) for rep, v in stats.per_repetition(rows, params, "pbkdf2_done_ms").items()}
    probes = {m: {rep: v[0] for rep, v in stats.per_repetition(rows, params, m).items()} for _, m, _ in PROBES}
    reps = [r for r in firsts if all(r in probes[m] for _, m, _ in PROBES)]
    held = sum(test(firsts[r], *(probes[m][r] for _, m, _ in PROBES)) for r in reps)
    return f"{held}/{len(reps)}"


def _first_pbkdf2(rows, params):
    return stats.median([r[0] for r in _ranked_pbkdf2(rows, params) if r])


def _runtimes_figure(context, scenarios):
    """One row per scenario that ran in more than one runtime, one panel per probe; a line per runtime."""
    compared = {k: v for k, v in scenarios.items() if len(v) > 1}
    if not compared:
        return None
    probes = RUNTIME_PROBES + [(None, "first pbkdf2")]
    # One colour per runtime (black: C++), solid for fetch, dashed for http.get.
    names = dict.fromkeys(label.partition(" ")[0] for runtimes in compared.values() for label in runtimes)
    colours = {name: "black" if name == "stallbench" else f"C{i}" for i, name in enumerate(names)}
    fig, axes = figure(len(compared), len(probes), figsize=(3.3 * len(probes), 0.6 + 2.9 * len(compared)),
                       squeeze=False, sharey="row")
    for row, ((digest, iters, jobs), runtimes) in enumerate(compared.items()):
        for col, (metric, title) in enumerate(probes):
            ax = axes[row, col]
            for label, pools in runtimes.items():
                sizes = sorted(pools)
                if metric is None:
                    med = [_first_pbkdf2(context.rows, pools[s]) for s in sizes]
                else:
                    by_cell = stats.values_by_cell(context.rows, metric)
                    med = [stats.median(by_cell.get(pools[s], [])) for s in sizes]
                if any(m is not None for m in med):
                    runtime, _, client = label.partition(" ")
                    ax.plot(sizes, med, marker="o", color=colours[runtime], ls="--" if client == "http.get" else "-",
                            lw=2 if runtime == "stallbench" else 1.2, label=label)
            ax.axvline(jobs, color="grey", ls=":", lw=1)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            sizes = sorted({s for pools in runtimes.values() for s in pools})
            ax.set_xticks(sizes, [str(s) for s in sizes])
            ax.set_title(f"{title} · {jobs} × {iters:,}" if col == 0 else title, fontsize=9)
            if row == len(compared) - 1:
                ax.set_xlabel("pool size (dotted: jobs)")
        axes[row, 0].set_ylabel("completion (ms, log)")
    fig.suptitle(f"C++ and Node side by side: medians per pool size ({context.cores} cores)", fontsize=11)
    fig.tight_layout()
    shared_legend(fig, fontsize=7)
    return save(fig, context.out, "pool-runtimes", "C++ and each Node line side by side against pool size")


TABLE_COLUMNS = ["jobs × iters", "runtime", table.number("pool"), table.number("fs", "ms"), table.number("dns", "ms"),
                 table.number("HTTP", "ms"), table.number("HTTP alone", "ms"), table.number("resolve4", "ms"),
                 table.number("first pbkdf2", "ms"), table.number("last pbkdf2", "ms"),
                 table.number("one job alone", "ms"), table.number("fs wait in jobs"), table.number("efficiency"),
                 table.number("fs after 1st job"), table.number("HTTP before 1st job")]


def _table(context, scenarios):
    rows = []
    for (digest, iters, jobs), runtimes in scenarios.items():
        for label, pools in runtimes.items():
            for pool, params in sorted(pools.items()):
                med = {m: stats.median(stats.values_by_cell(context.rows, m).get(params, [])) for m in TABLE_METRICS}
                ranked = _ranked_pbkdf2(context.rows, params)
                first = stats.median([r[0] for r in ranked if r])
                last = stats.median([r[-1] for r in ranked if r])
                in_jobs = med["fs_latency_ms"] / med["pbkdf2_alone_ms"] if med["fs_latency_ms"] and med["pbkdf2_alone_ms"] else None
                rows.append([f"{jobs} × {iters:,} {digest}", label, pool, stats.fmt(med["fs_latency_ms"]),
                             stats.fmt(med["dns_latency_ms"]), stats.fmt(med["tcp_latency_ms"]),
                             stats.fmt(med["tcp_alone_ms"], 2), stats.fmt(med["resolve4_latency_ms"]), stats.fmt(first),
                             stats.fmt(last), stats.fmt(med["pbkdf2_alone_ms"]), stats.fmt(in_jobs, 2),
                             stats.fmt(med["pool_efficiency"], 2),
                             _share(context.rows, params, lambda first, fs, dns, tcp: fs >= first),
                             _share(context.rows, params, lambda first, fs, dns, tcp: tcp < first)])
    return table.markdown(TABLE_COLUMNS, rows)


WAIT_COLUMNS = ["jobs × iters", "runtime", table.number("pool"), table.number("fs wait", "ms"),
                table.number("dns wait", "ms"), table.number("fs latency", "ms"), table.number("first pbkdf2", "ms"),
                table.number("fs wait / first pbkdf2"), table.number("fs wait in jobs")]


def _wait_table(context, scenarios):
    """The queue waits of every runtime side by side per pool size, read against the first pbkdf2's
    completion (what a request behind the jobs waits for) and one job's alone time."""
    rows, missing = [], []
    for (digest, iters, jobs), runtimes in scenarios.items():
        for label, pools in runtimes.items():
            for pool, params in sorted(pools.items()):
                med = stats.medians_by_cell(context.rows, [params], (*WAITS, "fs_latency_ms", "pbkdf2_alone_ms"))[params]
                if med["fs_queue_wait_ms"] is None:
                    missing.append(f"{label} pool {pool}")
                    continue
                first = _first_pbkdf2(context.rows, params)
                ratio = lambda a, b: stats.fmt(a / b, 2) if a is not None and b else "–"  # noqa: E731
                rows.append([f"{jobs} × {iters:,} {digest}", label, pool, stats.fmt(med["fs_queue_wait_ms"], 2),
                             stats.fmt(med["dns_queue_wait_ms"], 2), stats.fmt(med["fs_latency_ms"]), stats.fmt(first),
                             ratio(med["fs_queue_wait_ms"], first), ratio(med["fs_queue_wait_ms"], med["pbkdf2_alone_ms"])])
    if not rows:
        return ""
    text = ("**Queue wait, every runtime.** The file read's and the lookup's wait for a pool thread (their canaries', "
            "medians over repetitions), beside the file read's latency and the first pbkdf2's completion: with no more "
            "threads than jobs the wait is the time until the first job frees a thread, whatever the runtime; with "
            "threads to spare it is a thread's wake-up (on fewer cores than busy threads, up to a time slice).\n\n"
            + table.markdown(WAIT_COLUMNS, rows))
    if missing:
        text += ("\nNo queue wait for " + ", ".join(missing) + ": those cells ran without the pool canary addon "
                 "(it was not in this build: it needs a pinned Node line's Node-API headers).\n")
    return text


def sections(context) -> str:
    scenarios = _scenarios([r for r in context.rows if r.benchmark == BENCHMARK])
    if not scenarios:
        return ""
    parts = ["### Pool saturation (seed 000)\n", READING]
    compared = _runtimes_figure(context, scenarios)
    if compared:
        parts.append(compared)
    waits = _wait_table(context, scenarios)
    if waits:
        parts.append(waits)
    first = _first_runtime(scenarios)
    parts.append(_latency_vs_pool(context, first))
    for scenario, pools in first.items():
        alone = stats.median([v for p in pools.values()
                              for v in stats.values_by_cell(context.rows, "pbkdf2_alone_ms").get(p, [])])
        parts.append(_timeline(context, scenario, pools, alone))
    parts.append("The timelines and the latency plot above show the first runtime of each scenario (the C++ cell "
                 "when it ran); the table below has every runtime.\n")
    parts.append(collapsed("Medians per cell, every runtime",
                           "*fs wait in jobs* is the file read's latency divided by one job's alone time; the last two "
                           "columns count the repetitions that showed the seed's shape.\n\n" + _table(context, scenarios)))
    return "\n".join(parts)
