"""The families' sections of a report, two at a time: drawing and saving their figures is most of a
report's time (29 s of a default run's on this 2-core machine, one core busy), and families share
nothing while they draw. Each family is drawn in a worker forked from the command (it sees the run
already loaded, and matplotlib already imported); what it returns is its Markdown, and its figures
are files it wrote itself.

The workers are the command's own code, not programs it runs: they stay in its process group (the
orphan sweep of children.py then knows them as ours), ignore the terminal's Ctrl-C, which reaches
them too (the command alone decides how to stop: leaving the pool ends them with SIGTERM, which they
meet by exiting, not by the command's own handler), and die with it however it dies
(PR_SET_PDEATHSIG)."""
import ctypes
import multiprocessing
import os
import signal
from typing import Callable

_PR_SET_PDEATHSIG = 1
WORKERS = 2  # at most; 1 draws in this process (a test that watches every figure drawn sets it)
_work: Callable[[str], str | None] | None = None  # what each worker runs, set before the fork


def _in_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _one(family: str) -> str | None:
    return _work(family)


def sections(families: list[str], work: Callable[[str], str | None]) -> list[str | None]:
    """work(family) for every family, in their order; two at a time where the machine has two cores.
    An exception of one family's work is raised here, as if it had run in this process."""
    workers = min(WORKERS, os.cpu_count() or 1, len(families))
    if workers < 2:
        return [work(f) for f in families]
    global _work
    _work = work
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_in_worker) as pool:
            return pool.map(_one, families, chunksize=1)
    finally:
        _work = None
