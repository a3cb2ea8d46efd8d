"""Report section for `stallbench doctor`: the verdict in a line, the figures behind it, the next
step, and the timeline of what the pool probe saw inside the program (loop delay and pool queue
wait over time, the load marked), from the run's raw/probe.jsonl. For `stallbench probe-cost`: the
program with and without the probe, round by round, and the ratios."""
from . import cost, rules
from ...probe import trace as probe_trace
from ...probe.window import nearest_rank, own
from ...rendering import table
from ...rendering.figures import figure, save, shared_legend

# Both benchmarks are declared in benches/doctor.cc and measured by their commands (doctor, probe-cost).
CONSUMES = {"probe-cost": cost.COMPARED}
PARAMETERS = {"probe-cost": ("probe",)}

READING = """\
The top panel is the program's **event loop**: each grey point is one firing of a 10 ms timer at the
height of how late it fired; the red point below it is how much of that the program's own work
explains (no more than the loop was active since the previous firing: JavaScript that holds the loop
for 300 ms makes a 300 ms red point, a process that did not get a core while its loop slept only a
grey one); the dark red line is each second's worst red point, which the verdict reads. The bottom panel is its **thread pool**: each point is one
canary, a no-op the probe submitted to libuv's pool at a random moment, at the height of how long it
waited (what any pool request submitted then waited: fs, crypto, zlib, dns.lookup): blue when it found
every thread busy with the program's jobs (a wait for a thread), grey when a thread was idle for it
(whatever it waited, it waited for a core); the line is each second's 99th percentile of the waits for
a thread. The green steps, on the right-hand axis, are how many of the program's jobs waited for a
thread on average in each second (libuv's own counters): work split into many short jobs shows there
even when each canary waits little. Dashed lines are the verdict's thresholds. The shaded band is
what the verdict is over, with --url: from the first request stallbench sent to the last answered.
Both axes of delay are logarithmic from 0.1 ms: points at the bottom edge waited 0.1 ms or less.
"""


def _timeline(context, trace: probe_trace.Trace, window_ms, driven: bool, index: int) -> str:
    origin = trace.start["t"]
    fig, (loop_ax, pool_ax) = figure(2, 1, figsize=(10, 6), sharex=True)
    xs = [(t - origin) / 1000 for p in trace.periods for t in p.loop_at]
    ys = [max(d, 0.1) for p in trace.periods for d in p.loop_delay]
    held = [max(own(d, c), 0.1) for p in trace.periods for d, c in zip(p.loop_delay, p.loop_cpu)]
    worst = {}
    for x, y in zip(xs, held):
        worst[int(x)] = max(worst.get(int(x), 0), y)
    loop_ax.scatter(xs, ys, s=3, color="lightgrey", label="timer lateness (each firing)")
    loop_ax.scatter(xs, held, s=3, color="tab:red", alpha=0.6, label="of it, held by the program")
    loop_ax.plot([k + 0.5 for k in sorted(worst)], [worst[k] for k in sorted(worst)], color="darkred", lw=1,
                 label="held by the program, worst per second")
    loop_ax.axhline(rules.LOOP_MAX_MS, color="tab:red", ls="--", lw=0.8, label="blocked: worst 100 ms")
    loop_ax.axhline(rules.LOOP_P50_MS, color="tab:orange", ls="--", lw=0.8, label="blocked: median 10 ms")
    loop_ax.set_ylabel("loop delay (ms, log)")
    loop_ax.set_yscale("log")
    seconds = {}
    for c in trace.canaries:
        if c.found_a_thread is not True:
            seconds.setdefault(int((c.submitted - origin) // 1000), []).append(c.wait)
    for kind, color, label in ((False, "tab:blue", "canary's wait, every thread busy"),
                               (None, "tab:blue", None), (True, "darkgrey", "canary's wait, a thread idle (a core)")):
        shown = [c for c in trace.canaries if c.found_a_thread is kind]
        pool_ax.scatter([(c.submitted - origin) / 1000 for c in shown], [max(c.wait, 0.1) for c in shown], s=4,
                        color=color, alpha=0.5, label=label if shown else None)
    ordered = sorted(seconds.items())
    pool_ax.plot([s + 0.5 for s, _ in ordered], [max(nearest_rank(v, 0.99), 0.1) for _, v in ordered],
                 color="navy", lw=1, label="p99 per second, waits for a thread")
    pools = [p for p in trace.periods if p.pool]
    if pools:
        jobs_ax = pool_ax.twinx()
        jobs_ax.step([(p.t1 - origin) / 1000 for p in pools], [p.pool.waiting for p in pools], where="pre",
                     color="tab:green", lw=1, label="jobs waiting for a thread (mean per second, right)")
        jobs_ax.set_ylabel("jobs waiting for a thread")
        jobs_ax.set_ylim(0, 1.1 * max(1.0, *(p.pool.waiting for p in pools)))
    pool_ax.axhline(rules.POOL_P99_MS, color="navy", ls="--", lw=0.8, label="saturated: p99 100 ms")
    pool_ax.axhline(rules.POOL_P50_MS, color="tab:cyan", ls="--", lw=0.8, label="saturated: median 10 ms")
    pool_ax.set_ylabel("pool queue wait (ms, log)")
    pool_ax.set_yscale("log")
    pool_ax.set_xlabel(f"seconds since pid {trace.pid} started")
    if driven:
        for ax in (loop_ax, pool_ax):
            ax.axvspan((window_ms[0] - origin) / 1000, (window_ms[1] - origin) / 1000, color="#ffd8a8", alpha=0.5,
                       lw=0, label="judged: the first request sent to the last answered")
    fig.suptitle(f"Inside {trace.short_command}: the event loop and the thread pool over time", fontsize=11)
    fig.tight_layout()
    shared_legend(fig, ncol=4, fontsize=7)
    return save(fig, context.out, f"doctor-timeline-{index}", "loop delay and pool queue wait over time")


COST_READING = """\
The same program at the same load, started afresh for each side of a round, once without the pool
probe and once with it, in alternating order (without first, then with first, ...), so a machine
that grows busier or quieter during the measurement weighs on both sides alike. The ratio is with /
without, per round; the table gives its median over the rounds and its range.
"""


COST_COLUMNS = ["metric", table.number("without (median)"), table.number("with (median)"),
                table.number("with − without (median)"), table.number("with / without, median (range)"),
                table.number("rounds")]


def _cost_section(context) -> str:
    rounds = cost.rounds_from_rows([r for r in context.rows if r.benchmark == "probe-cost"])
    rows = [[metric, f"{c.without:.2f}", f"{c.with_probe:.2f}", f"{c.difference:+.2f}",
             f"×{c.ratio:.3f} ({c.ratio_low:.3f}–{c.ratio_high:.3f})" if c.ratio is not None else None, c.rounds]
            for metric, c in cost.summary(rounds).items()]
    meta = context.run.meta
    exporter = f", with its {meta['exporter']} exporter" if meta.get("exporter") else ""
    return (f"### What the pool probe costs\n\n`{meta.get('app')}` at {meta.get('rate')} requests/s, the probe at "
            f"{meta.get('probe_rate_per_s')} canaries/s{exporter}.\n\n" + COST_READING + "\n" + table.markdown(COST_COLUMNS, rows))


def sections(context) -> str:
    meta = context.run.meta
    if any(r.benchmark == "probe-cost" for r in context.rows):
        return _cost_section(context)
    found = meta.get("doctor")
    if not found:
        return "No doctor verdict was recorded in this run.\n"
    parts = [f"**Verdict: {found['headline']}** (over {found['over']}).\n"]
    parts += [f"- {line}" for line in found["figures"] + found["notes"]]
    parts.append(f"\n**Next:** {found['next']}\n")
    if found.get("startup_ms") is not None:
        parts.append(f"Start-up (the main module's run, not judged): {found['startup_ms']:.0f} ms.\n")
    probe_file = context.run.raw / "probe.jsonl"
    traces = probe_trace.read(probe_file) if probe_file.exists() else {}
    measured = traces.get(found["measured_pid"])
    if measured:
        parts += [READING, _timeline(context, measured, found["window_ms"], meta.get("url") is not None, 0)]
    others = [f"pid {pid}: {command}" for pid, command in found.get("processes", {}).items()
              if int(pid) != found["measured_pid"]]
    if others:
        parts.append("Other Node processes of the program (not judged: the busiest is): " + "; ".join(others) + ".\n")
    return "\n".join(parts) + "\n"
