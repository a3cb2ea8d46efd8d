"""The probe's stuck-match rule counts a match's processor time, not its wall time: on a loaded
machine a match that only waits for the processor is not stuck (a wall-time limit killed such
matches, restarted the probe each time and recorded the load as timeouts)."""
import sys
import time

from stallbench_lib import children
from stallbench_lib.process_cpu import tree_cpu_s


def test_a_process_that_works_spends_processor_time_and_one_that_waits_does_not():
    waiting = children.start(["sleep", "30"])
    working = children.start([sys.executable, "-c", "while True: pass"])
    parent = children.start([sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', 'while True: pass'])"])
    try:
        time.sleep(2.0)
        assert tree_cpu_s(working.pid) > tree_cpu_s(waiting.pid)
        # A child's work counts as its parent's: an engine's program is the child of what drives it.
        assert tree_cpu_s(parent.pid) > tree_cpu_s(waiting.pid)
    finally:
        children.kill(waiting)
        children.kill(working)
        children.kill(parent)
