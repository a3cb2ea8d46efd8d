"""The pool probe's view of libuv's pool and of the main thread, in real programs: libuv's own
counters read in every installed Node line (busy threads, the program's jobs waiting), each canary
told apart into a wait for a thread or for a core; the main thread's CPU time beside each loop sample,
from process.threadCpuUsage where the line has it; and a Node whose symbol table is stripped, where
the pool cannot be read: said, not guessed."""
import json
import os
import subprocess

import pytest

from conftest import BUILD, DATA
from stallbench_lib import node as nodejs
from stallbench_lib.probe import preload, trace as probe_trace
from stallbench_lib.probe.occupancy import occupancy
from test_probe import _installed_lines, probe  # noqa: F401 (a fixture)

PROBE_DATA = DATA / "probe"
POOL = 2


def _traced(node_path: str, probe, tmp_path, program: str, *args: str, pool: int = POOL) -> probe_trace.Trace:
    out = tmp_path / "probe.jsonl"
    env = {**preload.environment(probe, out, 100), "UV_THREADPOOL_SIZE": str(pool)}
    result = subprocess.run([node_path, str(PROBE_DATA / program), *args], env=env, capture_output=True, text=True,
                            timeout=180)
    assert result.returncode == 0, result.stderr
    (t,) = probe_trace.read(out).values()
    return t


@pytest.mark.parametrize("line", _installed_lines())
def test_libuv_s_own_counters_are_read_in_every_line(tmp_path, probe, line):
    node = nodejs.resolve([line])[0]
    t = _traced(node.path, probe, tmp_path, "keeps_the_pool_busy.js", "3")
    occupied = occupancy(t.periods, t.start["t"], t.ended_at)
    assert occupied is not None, [p.pool_unreadable for p in t.periods]
    # Four jobs always in flight on two threads: both threads busy, about two jobs waiting for one.
    assert occupied.threads == POOL and occupied.busy >= 0.9 * POOL and occupied.waiting > 0
    known = [c.found_a_thread for c in t.canaries if c.found_a_thread is not None]
    assert known and known.count(False) >= 0.9 * len(known)
    wanted = "process.threadCpuUsage" if int(line) >= 22 else "CLOCK_THREAD_CPUTIME_ID"
    assert t.start["main_thread_cpu"] == wanted


def test_an_idle_pool_has_no_job_waiting_and_a_canary_finds_no_thread_only_behind_other_canaries(tmp_path, probe):
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    out = tmp_path / "probe.jsonl"
    result = subprocess.run([node.path, "-e", "setTimeout(() => {}, 2500)"], capture_output=True, text=True, timeout=120,
                            env={**preload.environment(probe, out, 100), "UV_THREADPOOL_SIZE": "4"})
    assert result.returncode == 0, result.stderr
    (t,) = probe_trace.read(out).values()
    occupied = occupancy(t.periods, t.start["t"], t.ended_at)
    # The canaries are left out of the program's jobs; Node's own rare job may be queued for a moment.
    assert occupied.threads == 4 and occupied.waiting == 0 and occupied.queued < 0.05
    canaries = sorted(t.canaries, key=lambda c: c.submitted)
    known = [c for c in canaries if c.found_a_thread is not None]
    assert any(c.found_a_thread for c in known)
    # The program has no pool job of its own, so a canary that found no thread idle found every thread
    # between the probe's canaries (taking one off the queue, or coming back from one; those queued or
    # running are left out). Each such canary was submitted while another was in flight (between its
    # submission and its completion on the main thread).
    for c in known:
        if not c.found_a_thread:
            assert any(o is not c and o.submitted <= c.submitted <= o.submitted + o.wait + o.delivery
                       for o in canaries), c


def test_a_canary_behind_other_canaries_has_none_of_the_program_s_jobs_ahead(probe):
    # One thread, no pool job of the program's own, bursts of canaries submitted in one turn: each
    # after a burst's first is queued behind the others, which are the probe's, not the program's.
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    addon = (BUILD / preload.ADDON).resolve()
    result = subprocess.run([node.path, str(PROBE_DATA / "canary_burst.js"), str(addon), "10", "8"], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "UV_THREADPOOL_SIZE": "1"})
    assert result.returncode == 0, result.stderr
    canaries = json.loads(result.stdout)["canaries"]
    assert len(canaries) == 80
    assert all(c["ahead"] == 0 for c in canaries), canaries
    assert any(c["idle"] == 1 for c in canaries)


def test_the_loop_s_cpu_time_goes_with_the_blocks_that_made_it_late(tmp_path, probe):
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    t = _traced(node.path, probe, tmp_path, "blocks_with_cpu.js", "3")
    samples = [(late, cpu) for p in t.periods for late, cpu in zip(p.loop_delay, p.loop_cpu)]
    most = max(cpu for _, cpu in samples)
    blocks = [(late, cpu) for late, cpu in samples if cpu >= most / 2]
    # Each block (every 500 ms for 3 s: five) is one sample carrying its CPU time, and that sample is
    # at least as late as the block ran: the loop could not fire meanwhile. Which sample is the latest
    # of all is the machine's doing on a busy one (a descheduled process is late with no CPU of its
    # own: 62 ms late with 0.44 ms of CPU on a brand-new machine running the suite), so it is not asked.
    assert 3 <= len(blocks) <= 7, samples  # and no more: the waits between them carry none
    assert all(late >= cpu - 10 - 1 for late, cpu in blocks), blocks
    assert all(cpu <= late + 10 + 1 for late, cpu in samples)  # one thread cannot run longer than the wall time


def test_a_stripped_node_says_why_its_pool_cannot_be_read(tmp_path, probe):
    node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
    stripped = tmp_path / "node"
    subprocess.run(["objcopy", "--strip-all", node.path, str(stripped)], check=True, timeout=300)
    t = _traced(str(stripped), probe, tmp_path, "keeps_the_pool_busy.js", "2")
    assert all(p.pool is None for p in t.periods)
    assert any("no symbol table" in (p.pool_unreadable or "") for p in t.periods)
    assert t.canaries and all(c.found_a_thread is None for c in t.canaries)
