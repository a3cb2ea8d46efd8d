"""Every child process the command starts (bench binaries, regex_check, stallbench_trace, node, the
build, load generators, browsers, a user's --app) lives by one rule: it runs in a process group of
its own, under a memory cap, and its whole group is killed when its time limit passes, when the
caller is done with it, when the command exits, and when the orchestrator dies by any signal.
Start children only through start() and run(), never through subprocess directly.

How each way out is covered:
- time limit, done, interruption: run()/kill()/forget() kill the child's whole group, and the groups
  of its descendants that made groups of their own (ninja's compilers: process_tree.kill_group);
- the command exits (normally, by exception, SIGINT/SIGTERM turned into an exception): atexit;
- the orchestrator is SIGKILLed: the child has PR_SET_PDEATHSIG=SIGKILL, and what the child started
  (node under a bench binary, a user's app's helpers) is killed by the watchdog (watchdog.py), a
  process of its own that notices the orchestrator's end as end-of-file on a pipe and kills every
  group still registered, and every process it saw below the orchestrator.
- a process that leaves its group (setsid) is found by walking down from the group while its parent
  is alive: a group asked to end (terminate) has those killed first. One whose parent has exited
  (a double-forked daemon) would be init's, out of reach: the orchestrator is a child subreaper
  (PR_SET_CHILD_SUBREAPER), so such orphans become its own children, and when the last child it
  started has ended, every orphan it adopted is killed (_kill_adopted).

Memory: every group is capped on resident memory by the watchdog (sum of RSS over the group, polled
every 0.25 s). Native children also get RLIMIT_AS at the same value, which fails their allocation at
once; V8 runtimes cannot (`reserves_address_space=True`): a WebAssembly.Memory reserves ~10 GB of
address space and each isolate of Node 24+ ~1 GB while a few MB are resident, so an address-space cap
either breaks them or bounds nothing. RLIMIT_DATA fails too (Node 26 counts 0.5 GB of writable
reservations per isolate).

PR_SET_PDEATHSIG fires when the *thread* that started the child exits: start children from the
main thread, or from a thread that outlives them.

How a child is set up before it runs (its stop signals unblocked, RLIMIT_AS, PR_SET_PDEATHSIG): by
the build's tools/stallbench_spawn, which sets them in itself and then becomes the child, once the
build has it; until then (the build itself, installers) by a Python function between fork and exec,
which makes subprocess fork the whole interpreter: about 25 ms of processor time more a child."""
import atexit
import contextlib
import ctypes
import os
import resource
import shutil
import signal
import subprocess
import threading
from pathlib import Path

from . import interrupts, orphans, paths, process_tree
from .watchdog_link import WatchdogLink

_PR_SET_PDEATHSIG = 1
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_MEMORY_VERDICT_WAIT_S = 1.0
STOPPING_GRACE_S = 0.5  # terminate()'s grace once a stop signal came: the command ends within 2 s
_live: dict[int, tuple[subprocess.Popen, int]] = {}  # pid -> (child, its memory cap)
_lock = threading.Lock()
# Held from a child's fork until it is registered, and while adopted orphans are killed: between the
# two, a child another thread has just forked is in no list yet and would look like an orphan.
_births = threading.Lock()
_stopping = threading.Event()  # set by stop_all(): the command is on its way out


def memory_limit_bytes() -> int:
    """Three quarters of physical memory: a runaway child fails alone instead of taking the machine."""
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 / 4)


def thread(target, *args) -> threading.Thread:
    """Starts a daemon thread that never takes SIGINT or SIGTERM. A signal sent to the process goes
    to a thread that does not block it: one sent while the main thread holds them (starting a child)
    would otherwise land in a pipe-reading thread, and the main thread, waiting on the cell, would
    not hear of it until the cell ended (a Ctrl-C unheard for minutes on a busy machine)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        started = threading.Thread(target=target, args=args, daemon=True)
        started.start()  # inherits the blocked mask
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return started


_watchdog = WatchdogLink(thread)


_started_by: str | None = None


def _mark() -> str:
    """This process's STARTED_BY value (process_tree.py), which the watchdog looks for."""
    global _started_by
    if _started_by is None or not _started_by.startswith(f"{os.getpid()}:"):
        _started_by = process_tree.mark(os.getpid())
    return _started_by


def _setup(address_space_bytes: int):
    def in_child() -> None:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # held by the parent during start()
        if address_space_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (address_space_bytes, address_space_bytes))
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return in_child


SPAWN = Path("tools") / "stallbench_spawn"


def _through_spawn(argv: list, address_space_bytes: int, popen_kwargs: dict) -> list[str] | None:
    """argv as the build's stallbench_spawn starts it (tools/stallbench_spawn.c), or None where _setup
    must do it: no such program yet, or a program this cannot find as Popen would (so that a missing
    one is still Popen's FileNotFoundError)."""
    spawn = paths.build_dir() / SPAWN
    if not os.access(spawn, os.X_OK) or popen_kwargs.get("executable") or popen_kwargs.get("shell"):
        return None
    args = [os.fsdecode(a) for a in argv]
    if "/" in args[0]:
        if not os.path.isabs(args[0]) and popen_kwargs.get("cwd") is not None:
            return None
        program = os.path.abspath(args[0])
    else:
        program = shutil.which(args[0], path=os.pathsep.join(map(os.fsdecode, os.get_exec_path(popen_kwargs.get("env")))))
    if not program or not os.path.isfile(program) or not os.access(program, os.X_OK):
        return None
    return [str(spawn), str(address_space_bytes), str(os.getpid()), program, *args]


@contextlib.contextmanager
def stop_signals_held():
    """SIGINT and SIGTERM wait until the block ends: a caller starts a child inside and enters the
    `try` that takes the child down before an interruption can land (one landing between start()
    and that `try` would leave the child, and its partial output, to nobody)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def start(argv: list[str], *, memory_bytes: int | None = None, reserves_address_space: bool = False,
          **popen_kwargs) -> subprocess.Popen:
    """Starts argv (no shell) in a new session whose group is capped at `memory_bytes` resident (default:
    three quarters of physical memory; 0: no cap, for the build and installers). The cap is also the
    child's RLIMIT_AS unless it `reserves_address_space` (V8: node). popen_kwargs go to subprocess.Popen."""
    if _stopping.is_set():  # a worker thread going on after the command was interrupted
        raise Stopping(f"not starting {Path(argv[0]).name}: the command is being stopped")
    cap = memory_limit_bytes() if memory_bytes is None else memory_bytes
    # The stop signals wait while the child starts: an interruption landing between Popen's fork
    # and our registering the group would leave a child nobody kills.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        orphans.adopt()
        popen_kwargs["env"] = {**(popen_kwargs.get("env") or os.environ), process_tree.STARTED_BY: _mark()}
        address_space = 0 if reserves_address_space else cap
        spawned = _through_spawn(argv, address_space, popen_kwargs)
        with _births:
            try:
                proc = subprocess.Popen(spawned, start_new_session=True, **popen_kwargs) if spawned else None
            except OSError:  # a stallbench_spawn half-written by a build: the slower way
                proc = None
            if proc is None:
                proc = subprocess.Popen(argv, start_new_session=True, preexec_fn=_setup(address_space), **popen_kwargs)
            with _lock:
                _live[proc.pid] = (proc, cap)
        _watchdog.watch(proc.pid, cap)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a caller may hold them longer (see stop_signals_held)
    return proc


def _kill_group(pgid: int) -> None:
    """kill_group over our own subtree: we are a subreaper (orphans.adopt), so nothing we started is
    anywhere else, and reading it is quicker than listing every process of a busy machine."""
    process_tree.kill_group(pgid, within=os.getpid())


def kill(proc: subprocess.Popen) -> None:
    """Kills the child's whole process group (with its descendants' groups) and reaps the child."""
    _kill_group(proc.pid)
    with contextlib.suppress(Exception):
        proc.wait()
    forget(proc)


def terminate(proc: subprocess.Popen, grace_s: float) -> None:
    """Asks the child's group to end (SIGTERM), waits up to `grace_s` for the child, then kills the
    group as kill() does: a program that flushes what it measured on SIGTERM (the pool probe) gets
    the chance, one that ignores it does not hold the caller up. What its members detached into
    groups of their own (setsid) is killed first, while the parents that lead to it are alive."""
    process_tree.kill_detached(proc.pid, within=os.getpid())
    if interrupts.stopping():  # the command was told to stop: no grace beyond a moment
        grace_s = min(grace_s, STOPPING_GRACE_S)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace_s)
    kill(proc)


def forget(proc: subprocess.Popen) -> None:
    """The child has exited and been reaped; its group may still hold helpers it started, so the
    group is killed too."""
    _kill_group(proc.pid)
    with _lock:
        known = _live.pop(proc.pid, None)
    if known is not None:
        _watchdog.release(proc.pid)
    _kill_adopted_when_alone()


def _kill_adopted_when_alone() -> None:
    """Once no child we started is running, every orphan we adopted is one of theirs: killed. While
    one runs, an orphan may be its helper (a user's app and its daemon), and stays. An installer
    (installer.py) is a child of ours started apart, never one of them: killing it would kill dpkg."""
    with _births:
        with _lock:
            if _live:
                return
            spared = {_watchdog.pid, *_installers} - {None}
        orphans.kill_adopted(spared)


_installers: set[int] = set()


@contextlib.contextmanager
def installer_running(pid: int):
    """While the block runs, the installer `pid` is spared by the orphan sweep above, whatever child
    ends meanwhile (a worker thread's, a build's)."""
    with _lock:
        _installers.add(pid)
    try:
        yield
    finally:
        with _lock:
            _installers.discard(pid)


def memory_kill(proc: subprocess.Popen) -> str | None:
    """Why the watchdog killed this (exited) child for memory, or None when it did not."""
    if proc.returncode != -signal.SIGKILL:
        return None
    return _watchdog.memory_kill(proc.pid, _MEMORY_VERDICT_WAIT_S)


def remove_if_killed(path: Path) -> None:
    """`path` (partial output) is deleted by the watchdog if the orchestrator dies, even by SIGKILL,
    until keep(path)."""
    _watchdog.remove_if_killed(str(path))


def keep(path: Path) -> None:
    _watchdog.keep(str(path))


@contextlib.contextmanager
def removed_if_killed(path: Path):
    """remove_if_killed(path) for the block, which itself renames or deletes it."""
    remove_if_killed(path)
    try:
        yield path
    finally:
        keep(path)


def run(argv: list[str], *, timeout_s: float, memory_bytes: int | None = None, reserves_address_space: bool = False,
        input: str | bytes | None = None, **popen_kwargs) -> subprocess.CompletedProcess:
    """Like subprocess.run(capture_output=True): waits at most timeout_s, then kills the child's whole
    group and raises subprocess.TimeoutExpired. Any other exception (an interruption) kills it too.
    The CompletedProcess has `memory_kill`: why the watchdog killed it for memory, or None."""
    popen_kwargs.setdefault("stdout", subprocess.PIPE)
    popen_kwargs.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        popen_kwargs["stdin"] = subprocess.PIPE
    proc = None
    try:
        with stop_signals_held():  # an interruption lands inside the `try`, with proc set
            proc = start(argv, memory_bytes=memory_bytes, reserves_address_space=reserves_address_space, **popen_kwargs)
        out, err = proc.communicate(input, timeout=timeout_s)
    except BaseException:
        if proc is not None:
            kill(proc)
        raise
    forget(proc)
    done = subprocess.CompletedProcess(argv, proc.returncode, out, err)
    done.memory_kill = memory_kill(proc)
    return done


def kill_all() -> None:
    """Every child still running, with its group: at exit, and from the orchestrator's stop paths."""
    with _lock:
        procs = [proc for proc, _ in _live.values()]
    for proc in procs:
        kill(proc)
    _kill_adopted_when_alone()


class Stopping(KeyboardInterrupt):
    """start() after stop_all(): a KeyboardInterrupt, so a worker's `except Exception` (a failed run
    made a row) does not carry on to its next child."""


def stop_all() -> None:
    """Kills every child still running and refuses new ones: when the command is interrupted while
    worker threads run children one after another (parallel.each), each ends at its next start
    instead of running its whole share of the work before the command can exit."""
    _stopping.set()
    kill_all()


atexit.register(kill_all)
