"""parallel.each under an interruption: the workers still going start no further child, so the
command ends at once instead of after each worker's whole share (`trace --jobs 2` stopped by SIGTERM
ran its two Node lines to the end before it exited)."""
import threading

import pytest

from stallbench_lib import children, interrupts, parallel

RUNS = 400  # 400 children of 50 ms: 20 s at the least, were nothing to stop the worker


@pytest.fixture
def stopping_cleared():
    yield
    children._stopping.clear()  # the flag is the command's; the other tests in this process go on


def test_an_interruption_stops_the_workers_at_their_next_child(stopping_cleared):
    looping = threading.Event()
    ended = {}

    def work(item):
        if item == "interrupt":  # once the other worker is on its way: an interruption
            looping.wait()
            raise interrupts.Interrupted()
        done = 0
        try:
            for done in range(RUNS):
                children.run(["sleep", "0.05"], timeout_s=60)
                looping.set()
        except children.Stopping:
            ended["how"] = f"stopped after {done} children"
            raise
        ended["how"] = "ran every child"

    with pytest.raises(KeyboardInterrupt):
        parallel.each(work, ["interrupt", "loop"], workers=2)
    assert ended["how"].startswith("stopped after"), ended
    with pytest.raises(children.Stopping):
        children.run(["true"], timeout_s=60)
