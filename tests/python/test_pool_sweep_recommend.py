"""The recommendation and the model's error on hand-made sweeps: the smallest qualifying size, the
reasons, and a clear verdict when no size qualifies."""
import pytest

from stallbench_lib.families.pool_sweep import mixes, targets
from stallbench_lib.families.pool_sweep.recommend import recommend
from stallbench_lib.families.pool_sweep.summary import ClassAtSize, Sweep, model_error


def _sweep(table):
    """table: {pool: {class: {metric: value}}}"""
    cells, classes = {}, []
    for pool, per_class in table.items():
        for cls, metrics in per_class.items():
            base = {"completed": 100, "unfinished": 0, "service_alone_ms": 10, "service_p50_ms": 10,
                    "queue_wait_p99_ms": 0, "service_p99_ms": 10, "throughput_per_s": 10}
            cells[(pool, cls)] = ClassAtSize(pool, cls, {**base, **metrics}, 1)
            if cls not in classes:
                classes.append(cls)
    per_size = {pool: {"cpu_util": 0.5, "effective_cores": 2.0} for pool in table}
    return Sweep(mixes.Mix.parse("x"), sorted(table), classes, cells, per_size)


TABLE = {
    1: {"pbkdf2": {"latency_p99_ms": 900, "throughput_per_s": 6}, "read": {"latency_p99_ms": 800, "queue_wait_p99_ms": 790}},
    2: {"pbkdf2": {"latency_p99_ms": 60, "throughput_per_s": 10}, "read": {"latency_p99_ms": 300, "queue_wait_p99_ms": 290}},
    4: {"pbkdf2": {"latency_p99_ms": 45, "throughput_per_s": 10}, "read": {"latency_p99_ms": 20}},
    8: {"pbkdf2": {"latency_p99_ms": 80, "throughput_per_s": 10, "service_p50_ms": 20}, "read": {"latency_p99_ms": 5}},
}


def test_smallest_size_meeting_every_target():
    rec = recommend(_sweep(TABLE), {}, cores=2)
    assert rec.size == 4
    assert rec.headline() == "recommended pool size: 4"
    text = " ".join(rec.reasons)
    assert "Pool 2 falls short: read p99 300" in text and "queue wait" in text
    assert "Pool 1 falls short" in text and "pbkdf2 throughput 6" in text
    assert "2 cores" in text and "reaches its full throughput from pool 2" in text
    assert "10.0 ms at pool 4 and 20.0 ms at pool 8" in text  # larger pools only add contention


def test_given_targets_change_the_answer():
    rec = recommend(_sweep(TABLE), targets.parse("read:400", ["pbkdf2", "read"]), cores=2)
    assert rec.size == 2
    assert rec.targets["read"].given and not rec.targets["pbkdf2"].given


def test_no_size_qualifies_names_the_class_and_why():
    rec = recommend(_sweep(TABLE), targets.parse("read:1", ["pbkdf2", "read"]), cores=2)
    assert rec.size is None
    assert rec.headline().startswith("recommended pool size: none")
    assert any(r.startswith("read misses its target at every size; at its best, pool 8") for r in rec.reasons)


def test_unfinished_work_makes_a_percentile_unbounded():
    table = {1: {"read": {"latency_p99_ms": 5, "completed": 90, "unfinished": 10}}, 2: {"read": {"latency_p99_ms": 5}}}
    rec = recommend(_sweep(table), {}, cores=2)
    assert rec.size == 2
    assert "never finished" in rec.reasons[1]


def test_model_error_is_the_median_absolute_relative_error():
    table = {1: {"read": {"latency_p50_ms": 10, "predicted_p50_ms": 12}},
             2: {"read": {"latency_p50_ms": 10, "predicted_p50_ms": 5}},
             4: {"read": {"latency_p50_ms": 10, "predicted_p50_ms": 11}}}
    error = model_error(_sweep(table))
    assert abs(error.median_abs - 0.2) < 1e-12
    assert len(error.points) == 3


def test_in_flight_paragraph_reads_the_seed_headline():
    from stallbench_lib.families.pool_sweep.section import _in_flight_paragraph

    table = {4: {"pbkdf2": {"service_p50_ms": 200}, "read": {"latency_p50_ms": 180, "latency_p99_ms": 390}},
             5: {"pbkdf2": {"service_p50_ms": 200}, "read": {"latency_p50_ms": 2.5, "predicted_enough_cores_p50_ms": 0.1}}}
    sweep = _sweep(table)
    sweep.mix = mixes.Mix.parse("pbkdf2@x4@300000+read@20")
    sweep.per_size[5]["busy_cores_delay_ms"] = 2.0
    (paragraph,) = _in_flight_paragraph(sweep, 2)
    assert "read with 4 × pbkdf2 always in flight" in paragraph
    assert "0.9 and 1.9 times one pbkdf2 job's time in the pool" in paragraph
    assert "At pool 5" in paragraph and "2.50 ms" in paragraph and "2.00 ms a job" in paragraph


def _app_sweep(waits: dict[int, list[float]], alone_ms: float = 40.0, p99: float = 100.0, answered: float = 10.0,
               machine: float | None = None, threads: dict | None = None):
    """An --app sweep whose probe measured `waits` (ms, one mean per second of the load) per size, the
    program answering `answered` of 10 requests a second, the whole machine `machine` busy; `threads`:
    the pool's utilisation, the program's CPU use and its threads waiting for a core, at every size."""
    threads = threads or {}
    cells = {}
    for pool, seconds in waits.items():
        metrics = {"latency_p99_ms": p99, "service_alone_ms": alone_ms, "completed": 100, "unfinished": 0,
                   "queue_wait_p99_ms": max(seconds) * 3, "queue_wait_mean_ms": sum(seconds) / len(seconds),
                   "throughput_per_s": answered, "offered_per_s": 10.0,
                   **({"pool_utilization": threads["pool_utilization"]} if "pool_utilization" in threads else {})}
        cells[(pool, "requests")] = ClassAtSize(pool, "requests", metrics, 1, {"queue_wait_second_mean_ms": seconds})
    per_size = {pool: {"loop_delay_p99_ms": 3.0, "loop_utilization": 0.1,
                       **({"machine_cpu_util": machine} if machine is not None else {}),
                       **{k: v for k, v in threads.items() if k != "pool_utilization"}} for pool in waits}
    return Sweep(mixes.Mix.parse("requests:10"), sorted(waits), ["requests"], cells, per_size, runtime="app")


FLOOR = [1.0, 1.3, 0.8, 1.1, 1.2, 0.9, 1.0, 1.4, 0.7, 1.1]  # an idle pool's wake-ups on a busy machine


def test_app_the_smallest_size_no_larger_size_beats_by_more_than_what_matters():
    rec = recommend(_app_sweep({1: [30, 45, 28, 60, 38, 41, 33, 52, 47, 39], 2: [x + 0.4 for x in FLOOR],
                                4: FLOOR, 8: FLOOR}), {}, cores=2)
    assert rec.size == 2
    text = " ".join(rec.reasons)
    assert "At pool 1 requests' pool work waited for a thread 40 ms in a typical second" in text
    assert "more than at pool 4" in text and "too few threads" in text
    assert "Pools 2, 4, 8 cannot be told apart" in text and "the smallest is recommended" in text
    assert "At pool 2 the requests meet their target" in text


def test_app_a_wait_the_interval_cannot_separate_from_enough_prefers_the_smaller_size():
    # Pool 2 waits 3.5 ms more than pool 8 on average, past the 4 ms threshold in some seconds only.
    noisy = [0.5, 9.5, 0.6, 8.0, 0.4, 7.5, 0.7, 9.0, 0.5, 8.3]
    rec = recommend(_app_sweep({1: [80] * 10, 2: [f + x for f, x in zip(FLOOR, noisy)], 8: FLOOR}), {}, cores=2)
    assert rec.size == 2
    assert any("cannot be told apart from too few threads" in r for r in rec.reasons)


def test_app_the_same_samples_give_the_same_answer():
    sweep = _app_sweep({1: [20, 25, 19, 30], 2: [2.4, 2.9, 1.5, 3.5], 4: [1, 1.2, 0.9, 1.1]}, alone_ms=25)
    first, second = recommend(sweep, {}, cores=2), recommend(sweep, {}, cores=2)
    assert (first.size, first.reasons) == (second.size, second.reasons)


def test_app_one_stalled_second_of_the_machine_does_not_decide():
    # At pool 8 one second's canaries waited 36 ms (the whole machine stalled): pool 1 still waits
    # for threads against pool 4, and pool 2 is still as good as the rest.
    stalled = FLOOR[:5] + [36.0] + FLOOR[6:]
    rec = recommend(_app_sweep({1: [12, 11, 13, 17, 15, 12, 13, 10, 9, 15], 2: FLOOR, 4: FLOOR, 8: stalled}), {},
                    cores=2)
    assert rec.size == 2


def test_app_when_even_the_largest_size_waits_none_is_enough():
    rec = recommend(_app_sweep({1: [200] * 5, 2: [90] * 5, 4: [50, 60, 55, 52, 58]}), {}, cores=2)
    assert rec.size is None
    assert rec.reasons[0].startswith("Even at pool 4 requests' pool work waited for a thread 55 ms in a typical second")


def test_app_a_program_that_cannot_keep_up_at_any_size_is_told_so_not_to_grow_the_pool():
    rec = recommend(_app_sweep({1: [2000] * 5, 2: [1200] * 5, 4: [1500] * 5}, answered=7.5), {}, cores=2)
    assert rec.size is None
    assert rec.reasons[0].startswith("The program could not keep up with the load at any size")
    assert "more threads cannot help" in rec.reasons[0] and "try larger" not in " ".join(rec.reasons)


LOOKUP_WAITS = {1: [2000] * 5, 2: [1900] * 5, 4: [600] * 5}  # at no size did the program keep up


@pytest.mark.parametrize("machine, threads, io", [
    # lookups hold threads on a socket: busy threads, little CPU, little run-queue time, even on a
    # machine kept busy by others (measured: a 40 ms dns.lookup a request at 60/s, pools 1, 2, 4)
    (1.0, {"pool_utilization": 0.5, "cpu_util": 0.04, "core_wait_threads": 0.1}, True),
    # CPU work on more threads than cores: the busy threads ran or waited for a core all the time
    (1.0, {"pool_utilization": 1.0, "cpu_util": 0.95, "core_wait_threads": 2.3}, False),
    # no run-queue time from the kernel: the machine's spare cores say it
    (0.35, {}, True),
    (0.97, {}, False),
])
def test_app_that_kept_up_at_no_size_is_told_to_grow_the_pool_only_when_its_threads_waited_for_io(machine, threads, io):
    rec = recommend(_app_sweep(LOOKUP_WAITS, answered=5.0, machine=machine, threads=threads), {}, cores=2)
    assert rec.size is None
    said = rec.reasons[0]
    assert ("waited for threads, not cores" in said and "Try larger sizes" in said) is io
    assert ("more threads cannot help" in said) is not io


def test_app_jobs_held_back_while_threads_sat_idle_are_named_as_lookups_capped_at_half_the_pool():
    # measured on the held-out lookup service at 60/s: pool 1, 2 and 4 busy 0.96, 1.0 and 2.0 threads
    sweep = _app_sweep(LOOKUP_WAITS, answered=5.0, machine=1.0, threads={"cpu_util": 0.04, "core_wait_threads": 0.1})
    for pool, busy, waiting in ((1, 0.96, 90.0), (2, 0.5, 92.0), (4, 0.5, 27.0)):
        sweep.cells[(pool, "requests")].metrics.update(pool_utilization=busy, pool_jobs_waiting=waiting)
    note = recommend(sweep, {}, cores=2).reasons[-2]
    assert note.startswith("Jobs waited while threads sat idle (pool 2: 92.0 waiting, 1.0 of 2 threads busy, pool 4")
    assert "a pool of 2 is a pool of 1, a pool of 4 is a pool of 2" in note
    # every thread busy: a queue, but nothing held back
    for pool in (2, 4):
        sweep.cells[(pool, "requests")].metrics.update(pool_utilization=1.0)
    assert not any(r.startswith("Jobs waited while threads sat idle") for r in recommend(sweep, {}, cores=2).reasons)


def test_app_a_missed_target_at_the_chosen_size_is_said_not_to_be_the_pool_s_doing():
    rec = recommend(_app_sweep({1: [40] * 6, 2: FLOOR[:6], 4: FLOOR[:6]}, p99=900), {}, cores=2)
    assert rec.size == 2
    assert any("miss their target at pool 2" in r and "not for want of threads" in r for r in rec.reasons)


def test_app_a_missed_target_where_the_wait_cannot_be_told_apart_is_not_said_to_be_elsewhere():
    # Pool 1's seconds range from none to 30 ms of wait per request (a busy machine): it cannot be
    # told apart from pool 2, so it is recommended, yet its wait may be why the requests are late.
    rec = recommend(_app_sweep({1: [1.0, 30, 2.0, 28, 3.0, 25, 1.5, 27], 2: FLOOR[:8], 4: FLOOR[:8]}, p99=900), {},
                    cores=2)
    assert rec.size == 1
    late = next(r for r in rec.reasons if "miss their target at pool 1" in r)
    assert "too few threads may be part of it" in late and "not for want of threads" not in late


def test_app_without_probe_samples_falls_back_to_latency():
    sweep = _app_sweep({1: [40] * 3, 2: [1] * 3})
    for cell in sweep.cells.values():
        cell.values.clear()
    rec = recommend(sweep, {}, cores=2)
    assert rec.size == 1  # p99 100 ms meets the default target of 200 ms at every size


def test_app_with_libuv_s_counters_the_sizes_are_compared_by_the_wait_per_request():
    # Work split into short jobs (gzip-like): each canary waits a millisecond or two at pool 1, no more
    # than at pool 4, but Little's law puts a request's pool work at ~300 ms of waiting at pool 1.
    sweep = _app_sweep({1: [1.5, 2.0, 1.2, 1.8, 1.6], 2: [1.1, 0.9, 1.3, 1.0, 1.2], 4: FLOOR[:5]}, alone_ms=90)
    per_request = {1: [310, 280, 350, 295, 330], 2: [4, 6, 3, 5, 4], 4: [0, 0, 1, 0, 0]}
    for pool, seconds in per_request.items():
        cell = sweep.at(pool, "requests")
        cell.values["pool_wait_per_request_second_ms"] = seconds
        cell.metrics["pool_wait_per_request_ms"] = sum(seconds) / len(seconds)
    rec = recommend(sweep, {}, cores=2)
    assert rec.size == 2
    assert "At pool 1 requests' pool work waited for threads 310 ms per request in a typical second" in " ".join(rec.reasons)
    del sweep.at(4, "requests").values["pool_wait_per_request_second_ms"]  # one size without: per job for all
    assert recommend(sweep, {}, cores=2).size == 1


def test_app_a_missed_target_names_the_wait_for_a_thread_where_the_probe_told_it_apart():
    sweep = _app_sweep({1: [40] * 6, 2: FLOOR[:6]}, p99=900)
    cell = sweep.at(2, "requests")
    assert any("waited up to 3.9 ms in the pool's queue (p99)" in r for r in recommend(sweep, {}, cores=2).reasons)
    cell.metrics["queue_thread_wait_p99_ms"] = 0.0  # every canary found a thread idle: it waited for a core
    assert any("waited up to 0.0 ms for a thread (p99)" in r for r in recommend(sweep, {}, cores=2).reasons)


def test_app_a_size_that_could_not_keep_up_is_never_the_answer_when_a_larger_one_did():
    # Pool 1 answered 8 of 10 requests a second: its wait, over the requests it did answer, is as
    # low as the larger sizes' (a gzip-like program at pool 1 on a busy machine), but it had too few
    # threads for the rate.
    sweep = _app_sweep({1: FLOOR[:6], 2: FLOOR[:6], 4: FLOOR[:6]})
    sweep.at(1, "requests").metrics["throughput_per_s"] = 8.0
    rec = recommend(sweep, {}, cores=2)
    assert rec.size == 2
    assert any(r.startswith("At pool 1 the program could not keep up with the load (it answered 8.0 of 10.0")
               for r in rec.reasons)
    sweep.at(1, "requests").metrics["throughput_per_s"] = 10.0
    assert recommend(sweep, {}, cores=2).size == 1
