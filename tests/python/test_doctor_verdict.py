"""The doctor's verdict on hand-made probe traces: a wait for a core is not a wait for a thread; a
loop late while its thread ran little of its own code is not blocked, and says so; a 100 ms handler
is blocked although no timer is 100 ms late; work split into many short jobs is saturated by
Little's law although each canary waits little; where libuv's pool cannot be read, the canaries'
waits count as they are, with a note; lookups libuv holds back while threads sit idle are named."""
from stallbench_lib.families.doctor import rules, verdict as verdicts
from stallbench_lib.probe.trace import Canary, Period, PoolOccupancy, Requests, Trace
from stallbench_lib.probe.window import window

SECONDS = 10


def _trace(canaries, loop, pool=None, requests=None, machine_busy=None, unreadable=None) -> Trace:
    """A process watched for SECONDS: `canaries` as (wait, idle threads, jobs ahead) spread over it, the
    loop as (late, cpu) per 10 ms firing, and every period's pool occupancy and requests."""
    t = Trace(1, {"t": 0.0, "argv": ["node", "x.js"], "node": "v26.12.1"})
    step = SECONDS * 1000 / len(canaries)
    t.canaries = [Canary(i * step, wait, 0.1, idle, ahead) for i, (wait, idle, ahead) in enumerate(canaries)]
    per_period = len(loop) // SECONDS
    for s in range(SECONDS):
        mine = loop[s * per_period:(s + 1) * per_period]
        at = [s * 1000 + 10 * (k + 1) for k in range(len(mine))]
        t.periods.append(Period(s * 1000.0, (s + 1) * 1000.0, at, [d for d, _ in mine], [c for _, c in mine], 0.2,
                                None, 0, None, pool, unreadable, machine_busy, requests))
    return t


def _verdict(trace, request_p50_ms=None, rate=None):
    return verdicts.diagnose(window(trace, 0, SECONDS * 1000), request_p50_ms, rate)


QUIET_LOOP = [(0.2, 0.05)] * 1000
IDLE_POOL = PoolOccupancy(100, 4, 0.0, 0.0, 0.0)


def test_canaries_that_found_a_thread_idle_waited_for_a_core_not_a_thread():
    # A busy machine: every canary had an idle thread, yet waited 20-60 ms for that thread to run.
    canaries = [(20.0 + (i % 5) * 10, 4, 0) for i in range(500)]
    v = _verdict(_trace(canaries, QUIET_LOOP, IDLE_POOL, machine_busy=1.0), request_p50_ms=5, rate=50)
    assert v.word == "neither"
    assert any("for a core" in note and "100% busy" in note for note in v.notes)


def test_canaries_that_found_every_thread_busy_waited_for_a_thread():
    canaries = [(40.0, 0, 3)] * 500
    v = _verdict(_trace(canaries, QUIET_LOOP, PoolOccupancy(100, 4, 4.0, 3.0, 3.0)), request_p50_ms=80, rate=20)
    assert v.word == "pool saturated"
    assert v.evidence.per_request_ms == 3.0 * 1000 / 20


def test_a_loop_late_while_its_thread_waited_for_a_core_is_not_blocked_and_says_which():
    loop = [(0.3, 0.05)] * 990 + [(127.0, 3.0)] * 10
    v = _verdict(_trace([(0.1, 4, 0)] * 500, loop, IDLE_POOL, machine_busy=0.97))
    assert v.word == "neither"
    assert any("delayed 127 ms but ran only 3 ms of its own code" in note for note in v.notes)


def test_a_100_ms_handler_blocks_the_loop_though_no_timer_is_100_ms_late():
    # Three requests a second, each 100 ms of JavaScript: the timer after each is about 90 ms late.
    loop = ([(0.2, 0.05)] * 30 + [(90.0, 100.0)]) * 33
    v = _verdict(_trace([(0.1, 4, 0)] * 500, loop, IDLE_POOL))
    assert v.loop_blocked and max(w for w, _ in loop) < rules.LOOP_MAX_MS
    assert v.evidence.long_task_share >= rules.LONG_TASK_SHARE


def test_work_split_into_short_jobs_is_saturated_by_littles_law_though_each_canary_waits_little():
    # Pool 1, gzip-like: 3.2 jobs wait on average, but each job is about 1 ms, so a canary waits a few.
    canaries = [(2.0, 0, 3)] * 400 + [(0.05, 1, 0)] * 100
    pool = PoolOccupancy(100, 1, 0.8, 3.2, 3.2)
    v = _verdict(_trace(canaries, QUIET_LOOP, pool), request_p50_ms=1400, rate=2.8)
    assert v.word == "pool saturated"
    assert (v.evidence.per_request_ms or 0) > 0.1 * 1400
    quiet = PoolOccupancy(100, 4, 0.8, 0.01, 0.01)  # the same work on four threads: nothing waits
    assert _verdict(_trace(canaries[400:], QUIET_LOOP, quiet), request_p50_ms=300, rate=2.8).word == "neither"


def test_without_requests_jobs_that_waited_half_as_long_as_they_ran_saturate_the_pool():
    # Eight jobs kept in flight on four threads wait as long as they run (4 waiting / 4 busy) in theory;
    # a busy machine, slowing the threads' work and the program's resubmissions, reads less: half counts.
    canaries = [(2.0, 0, 2)] * 500
    assert _verdict(_trace(canaries, QUIET_LOOP, PoolOccupancy(100, 1, 1.0, 2.0, 2.0))).word == "pool saturated"
    assert _verdict(_trace(canaries, QUIET_LOOP, PoolOccupancy(100, 4, 4.0, 2.4, 2.4))).word == "pool saturated"
    assert _verdict(_trace(canaries, QUIET_LOOP, PoolOccupancy(100, 4, 4.0, 1.6, 1.6))).word == "neither"
    assert _verdict(_trace(canaries, QUIET_LOOP, PoolOccupancy(100, 4, 3.0, 0.1, 0.1))).word == "neither"


def test_requests_seen_inside_the_program_give_little_its_rate_when_watched():
    requests = Requests(3, [1300.0, 1400.0, 1500.0])  # 3 a second, each period
    v = _verdict(_trace([(2.0, 0, 3)] * 500, QUIET_LOOP, PoolOccupancy(100, 1, 0.8, 3.2, 3.2), requests))
    assert v.word == "pool saturated" and v.evidence.requests_per_s == 3 and v.evidence.latency_ms == 1400.0


def test_an_unreadable_pool_falls_back_to_the_canaries_waits_with_a_note():
    canaries = [(40.0, None, None)] * 500
    v = _verdict(_trace(canaries, QUIET_LOOP, unreadable="/usr/bin/node: it has no symbol table (a stripped binary)"))
    assert v.word == "pool saturated"
    assert any("could not be read" in note and "stripped" in note for note in v.notes)


def test_lookups_held_back_while_threads_sat_idle_are_saturated_and_named():
    # A dns.lookup service at pool 2: one thread runs lookups (their whole share), the other sits idle
    # with 40 lookups queued; a canary finds that idle thread, so only libuv's counters show the wait.
    held = PoolOccupancy(100, 2, 1.0, 40.0, 40.0)
    v = _verdict(_trace([(0.2, 1, 0)] * 500, QUIET_LOOP, held), request_p50_ms=1500, rate=40)
    assert v.word == "pool saturated"
    assert any(note.startswith("Jobs waited while threads sat idle (pool 2: 40.0 waiting, 1.0 of 2 threads busy)")
               and "a pool of 2 is a pool of 1" in note for note in v.notes)
    # every thread busy: a queue like any other, no such note
    v = _verdict(_trace([(40.0, 0, 3)] * 500, QUIET_LOOP, PoolOccupancy(100, 2, 2.0, 3.0, 3.0)), request_p50_ms=80,
                 rate=20)
    assert not any(note.startswith("Jobs waited while threads sat idle") for note in v.notes)
