"""A report draws its families' sections two at a time (rendering/side_by_side.py): each family's
Markdown comes back in the families' order, a family's exception is raised as if it had run in the
command, and on two cores two families are drawn at once, in processes of their own."""
import os
import time

import pytest

from stallbench_lib.rendering import side_by_side


def test_each_familys_answer_comes_back_in_order():
    assert side_by_side.sections(["browser", "json", "pool", "regex"], lambda f: f.upper()) == \
        ["BROWSER", "JSON", "POOL", "REGEX"]


def test_a_familys_exception_is_raised_in_the_command():
    def work(family):
        if family == "json":
            raise ValueError("json: no such metric")
        return family

    with pytest.raises(ValueError, match="json: no such metric"):
        side_by_side.sections(["browser", "json", "pool"], work)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the families are drawn one after another")
def test_two_families_are_drawn_at_once_in_other_processes():
    def work(family):
        started = time.monotonic()
        time.sleep(0.5)
        return os.getpid(), started, time.monotonic()

    (pid_a, start_a, end_a), (pid_b, start_b, end_b) = side_by_side.sections(["browser", "json"], work)
    assert len({pid_a, pid_b, os.getpid()}) == 3
    assert start_b < end_a and start_a < end_b  # the two drawings overlapped
