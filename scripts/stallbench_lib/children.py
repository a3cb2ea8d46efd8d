"""Every child process the command starts (bench binaries, regex_check, stallbench_trace, node, load
generators, browsers, a user's --app) lives by one rule: it runs in a process group of its own,
under a memory cap, asks the kernel to kill it when the orchestrator dies (even by SIGKILL), and its
whole group is killed when its time limit passes, when the caller is done with it, and when the
command exits. Start children only through start() and run(), never through subprocess directly.

PR_SET_PDEATHSIG fires when the *thread* that started the child exits: start children from the
main thread, or from a thread that outlives them."""
import atexit
import contextlib
import ctypes
import os
import resource
import signal
import subprocess
import threading

_PR_SET_PDEATHSIG = 1
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_live: dict[int, subprocess.Popen] = {}
_lock = threading.Lock()


def memory_limit_bytes() -> int:
    """Three quarters of physical memory: a runaway child fails alone instead of taking the machine."""
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 / 4)


def _setup(memory_bytes: int | None, limit: int):
    def in_child() -> None:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # held by the parent during start()
        if memory_bytes:
            resource.setrlimit(limit, (memory_bytes, memory_bytes))
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return in_child


def start(argv: list[str], *, memory_bytes: int | None = None, data_only: bool = False,
          **popen_kwargs) -> subprocess.Popen:
    """Starts argv (no shell) in a new session capped at `memory_bytes` (default: three quarters of
    physical memory; 0: no cap, for runtimes such as V8 that reserve address space up front).
    The cap is on the address space, or with `data_only` on the data segment (RLIMIT_DATA): for
    runtimes such as Chromium, whose V8 sandbox reserves a terabyte it never touches, so that they
    run capped at all. popen_kwargs go to subprocess.Popen."""
    cap = memory_limit_bytes() if memory_bytes is None else memory_bytes
    # The stop signals wait while the child starts: an interruption landing between Popen's fork
    # and our registering the group would leave a child nobody kills.
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        proc = subprocess.Popen(argv, start_new_session=True, preexec_fn=_setup(cap, resource.RLIMIT_DATA if data_only else resource.RLIMIT_AS),
                                **popen_kwargs)
        with _lock:
            _live[proc.pid] = proc
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    return proc


def kill(proc: subprocess.Popen) -> None:
    """Kills the child's whole process group and reaps the child."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        proc.wait()
    forget(proc)


def forget(proc: subprocess.Popen) -> None:
    """The child has exited and been reaped; its group may still hold helpers it started, so the
    group is killed too."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with _lock:
        _live.pop(proc.pid, None)


def run(argv: list[str], *, timeout_s: float, memory_bytes: int | None = None, data_only: bool = False,
        input: str | bytes | None = None, **popen_kwargs) -> subprocess.CompletedProcess:
    """Like subprocess.run(capture_output=True): waits at most timeout_s, then kills the child's whole
    group and raises subprocess.TimeoutExpired. Any other exception (an interruption) kills it too."""
    popen_kwargs.setdefault("stdout", subprocess.PIPE)
    popen_kwargs.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        popen_kwargs["stdin"] = subprocess.PIPE
    proc = start(argv, memory_bytes=memory_bytes, data_only=data_only, **popen_kwargs)
    try:
        out, err = proc.communicate(input, timeout=timeout_s)
    except BaseException:
        kill(proc)
        raise
    forget(proc)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def kill_all() -> None:
    """Every child still running, with its group: at exit, and from the orchestrator's stop paths."""
    with _lock:
        procs = list(_live.values())
    for proc in procs:
        kill(proc)


atexit.register(kill_all)
