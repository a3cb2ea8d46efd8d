"""The doctor's verdict on a program, from what the pool probe saw over a window:

- **loop blocked** when the program's own code held the loop: the part of each timer's lateness its
  main thread spent running (no more than the CPU time it used since the firing before: a thread
  waiting for a core is late without running anything) reached a median of 10 ms or 100 ms at its
  worst (clinic.js doctor's thresholds, on the same measure), or long tasks (50 ms or more of its own
  code between two firings, the browser's long-task threshold) took 2% of the time or more: a
  100 ms handler makes a timer at most about 90 ms late, yet it holds every other request that long.
- **pool saturated** when the program's pool work waited for a *thread*, not for a core: canaries
  that found every thread busy with the program's jobs waited a median of 10 ms or more, or 100 ms or
  more at p99 (a canary that found a thread idle and still waited, waited for a core: it counts as
  no wait for a thread); or the pool's queue added a tenth or more of the requests' median latency
  to each request, by Little's law from the jobs waiting for a thread on average (probe/occupancy.py),
  which counts work libuv splits into many short jobs as a single canary cannot; for a program that
  serves no requests, when its jobs waited for a thread at least half as long as they ran (jobs waiting /
  threads busy, Little's law again: mean wait / mean run). Where libuv's pool cannot be read, the
  canaries' waits are taken as they are, with a note.
- **both**, or **neither**."""
from . import verdict_text
from .rules import Verdict, evidence, judge
from ...probe.window import Window


def diagnose(w: Window, request_p50_ms: float | None = None, requests_per_s: float | None = None,
             machine_cpu_util: float | None = None) -> Verdict:
    """The verdict over window `w`; `request_p50_ms` and `requests_per_s` when stallbench drove requests
    meanwhile; `machine_cpu_util` how busy the whole machine was meanwhile (else the probe's reading)."""
    e = evidence(w, request_p50_ms, requests_per_s)
    v = Verdict(*judge(w, e), evidence=e)
    v.figures, v.notes = verdict_text.figures(w, e), verdict_text.notes(w, v, machine_cpu_util)
    return v


def next_step(v: Verdict, command: str, url: str | None, rate: float | None, pool: int, cores: int | None) -> str:
    """What to do next, as a command line where there is one."""
    if v.loop_blocked:
        return ("Unblock the loop first: a larger pool cannot help JavaScript that holds the main thread. Move the "
                "long synchronous work to a worker thread or cut it into chunks that yield (the `report` family "
                "measures the three ways side by side); then run the doctor again.")
    if v.pool_saturated:
        sizes = sorted({max(1, pool // 2), pool, *(min(1024, pool * k) for k in (2, 4)), *((cores,) if cores else ())})
        target = (f"--url {url} --rate {rate:g}" if url and rate else "--url http://127.0.0.1:PORT/PATH --rate R")
        return (f"Find the pool size that stops the wait: scripts/stallbench sweep-pool --app {_quoted(command)} "
                f"{target} --sizes {','.join(str(s) for s in sizes)}")
    return ("Nothing to tune at this load. To find the load where the loop or the pool starts to hold requests up, "
            "run the doctor again at a higher --rate, or sweep rates and sizes with scripts/stallbench sweep-pool --app.")


def _quoted(command: str) -> str:
    return "'" + command.replace("'", "'\\''") + "'"
