"""Independent work (one child process each, through children.py) spread over the machine's cores,
in threads: the regex family's sample check (one regex_check per engine), recheck's analysis (one
analyser per share of the regexes) and the Node lines `trace --jobs` compares at once. The threads
block SIGINT and SIGTERM, so an interruption reaches the main thread at once (children.thread's
rule); when it does, every child still running is killed and no new one starts
(children.stop_all), which ends the threads waiting on them or about to start their next one, and
the interruption goes on."""
import os
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from . import children


def _hold_stop_signals() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def cores() -> int:
    return os.cpu_count() or 1


def each(work: Callable, items: Iterable, workers: int | None = None) -> list:
    """[work(item) for item in items], up to `workers` (default: the core count) at a time, in order."""
    items = list(items)
    if len(items) <= 1:
        return [work(item) for item in items]
    pool = ThreadPoolExecutor(max_workers=min(workers or cores(), len(items)), initializer=_hold_stop_signals)
    try:
        return list(pool.map(work, items))
    except KeyboardInterrupt:  # an interruption: the workers still going start no further child
        children.stop_all()
        raise
    except BaseException:
        children.kill_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
