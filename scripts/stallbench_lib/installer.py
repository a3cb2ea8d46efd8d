"""scripts/bootstrap run by the command (OS packages, Node lines, npm sets): the one child that is never
killed. dpkg killed half-way leaves the machine's package system broken for every later apt-get, the
user's included, so the rule of children.py (a group killed at its limit, at the command's end, by the
watchdog when the command dies) cannot hold here. Instead:

- no time limit here: the install has its own, in scripts/apt-install, which meets it by stopping apt
  safely; downloads (Node lines, npm sets) are bounded by scripts/install-npm;
- a Ctrl-C or SIGTERM of the command is passed on as SIGTERM to the installer's group, whose scripts
  let dpkg finish, and the command waits for it to exit before it goes on stopping;
- the installer is not registered with the watchdog; if the command is SIGKILLed, the kernel sends
  the installer SIGTERM (PR_SET_PDEATHSIG), which it meets the same way.

When the command holds its terminal, the installer is given the terminal while it runs (foreground.py),
so that sudo can ask for the password when the command is not root; a Ctrl-C there reaches the
installer alone, which stops as above, and the command then stops as that Ctrl-C would have stopped it.

What the installer says is shown as it says it (progress, apt's own messages); its last line of its own
is the reason it failed."""
import contextlib
import ctypes
import functools
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

from . import children, foreground, interrupts, paths

BOOTSTRAP = paths.ROOT / "scripts" / "bootstrap"
_PR_SET_PDEATHSIG = 1
_OWN = "stallbench: "
_INSTALLING = "stallbench: installing"
_PROGRESS = (_INSTALLING, "stallbench: packages:", "stallbench: notice")


@dataclass
class Outcome:
    ok: bool
    installed: bool  # something was installed (a build may find new libraries)
    reason: str      # why it failed: the installer's last line of its own, without the prefix


def _in_child(terminal: int | None) -> None:
    if terminal is not None:
        foreground.take_in_child(terminal)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _shown(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def bootstrap(args: list[str]) -> Outcome:
    """Runs scripts/bootstrap ARGS to its end, showing what it says; see the module's docstring."""
    terminal = foreground.held_terminal()
    with foreground.returned_to_us(terminal) if terminal is not None else contextlib.nullcontext():
        proc, held_back, installed = _run(args, terminal)
    if terminal is not None and proc.returncode in interrupts.STOP_EXITS:
        raise interrupts.Interrupted(proc.returncode - 128)  # the terminal's Ctrl-C, which the installer took
    if proc.returncode == 0:
        if held_back:
            _shown(held_back)
        return Outcome(True, installed, "")
    return Outcome(False, installed, held_back.removeprefix(_OWN)
                   or f"scripts/bootstrap {' '.join(args)} exited {proc.returncode}")


def _run(args: list[str], terminal: int | None) -> tuple[subprocess.Popen, str, bool]:
    """The installer run to its end: it, its last line of its own, and whether it installed anything."""
    proc, held_back, installed = None, "", False
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        try:  # the stop signals wait until the child exists, so that an interruption always finds it
            proc = subprocess.Popen([str(BOOTSTRAP), *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    encoding="utf-8", errors="replace", start_new_session=terminal is None,
                                    preexec_fn=functools.partial(_in_child, terminal))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        with children.installer_running(proc.pid):
            for line in proc.stderr:
                line = line.rstrip()
                installed = installed or line.startswith(_INSTALLING)
                if line.startswith(_OWN) and not line.startswith(_PROGRESS):
                    if held_back:  # only its last line of its own is the reason, shown by the caller
                        _shown(held_back)
                    held_back = line
                elif line:
                    _shown(line)
            proc.wait()
    except KeyboardInterrupt:  # interrupts.Interrupted: stop it safely, wait, then go on stopping
        if proc is None:
            raise
        _shown("stallbench: stopping the install safely (dpkg finishes the step it is on) ...")
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        with children.installer_running(proc.pid):
            for line in proc.stderr:
                _shown(line.rstrip())
            proc.wait()
        raise
    return proc, held_back, installed
