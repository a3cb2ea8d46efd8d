"""app/process_group.py, what the sweep and the doctor read of a user's program from /proc: a group's
CPU seconds, and the time its threads waited for a core (schedstat), which tells a thread held by
I/O from one waiting for a processor."""
import os
import subprocess
import sys
import time

import pytest

from stallbench_lib.app import process_group

SCHEDSTAT = os.path.exists("/proc/self/schedstat")


def _group(code: str, cpu: int) -> subprocess.Popen:
    """A Python child in a group of its own, pinned to one core (its forks with it)."""
    return subprocess.Popen([sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\n{code}"],
                            start_new_session=True)


@pytest.mark.skipif(not SCHEDSTAT, reason="this kernel keeps no schedstat")
def test_threads_that_share_one_core_wait_for_it_and_sleeping_threads_do_not():
    cpu = min(os.sched_getaffinity(0))
    # processes, not Python threads: a thread waiting for the GIL sleeps rather than waits for a core
    spinners = _group("for _ in range(3):\n    if os.fork() == 0: break\nwhile True: pass", cpu)
    sleepers = _group("import time\nfor _ in range(3):\n    if os.fork() == 0: break\ntime.sleep(60)", cpu)
    try:
        time.sleep(0.3)
        start = {p.pid: (process_group.core_wait_seconds(p.pid), process_group.cpu_seconds(p.pid))
                 for p in (spinners, sleepers)}
        time.sleep(1.5)
        waited = {p.pid: process_group.core_wait_seconds(p.pid) - start[p.pid][0] for p in (spinners, sleepers)}
        ran = {p.pid: process_group.cpu_seconds(p.pid) - start[p.pid][1] for p in (spinners, sleepers)}
    finally:
        for p in (spinners, sleepers):
            os.killpg(p.pid, 9)
            p.wait()
    # four spinners on one core: while one runs, three wait; processes asleep neither run nor wait
    assert waited[spinners.pid] > ran[spinners.pid]
    assert waited[sleepers.pid] < waited[spinners.pid] / 10


def test_a_group_that_does_not_exist_has_nothing_to_read():
    assert process_group.core_wait_seconds(2**22 + 12345) is None
