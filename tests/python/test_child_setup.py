"""How every child starts (children.py): in a session of its own, with SIGINT and SIGTERM unblocked
although the orchestrator holds them while it starts one, RLIMIT_AS at its cap unless it reserves
address space, and SIGKILL when the thread that started it ends. The same whether the build's
tools/stallbench_spawn sets these up or, before there is one, a Python function between fork and
exec; a program that cannot be found is Popen's FileNotFoundError either way."""
import json
import subprocess
import sys

import pytest

from conftest import BUILD
from stallbench_lib import children

# The child reports what it started with.
REPORT = r"""
import ctypes, json, os, resource, signal
deathsig = ctypes.c_int(0)
ctypes.CDLL(None).prctl(2, ctypes.byref(deathsig))  # PR_GET_PDEATHSIG
print(json.dumps({"blocked": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
                  "address_space": resource.getrlimit(resource.RLIMIT_AS)[0], "deathsig": deathsig.value,
                  "session_leader": os.getsid(0) == os.getpid()}))
"""
CAP = 8 << 30


@pytest.fixture(params=["stallbench_spawn", "fork and exec"])
def way(request, monkeypatch):
    """Which way the children of the test start; what Popen was given, to tell them apart."""
    if request.param == "fork and exec":
        monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD / "no-such-build"))
    else:
        assert (BUILD / children.SPAWN).is_file(), "the build has no tools/stallbench_spawn"
        monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD))
    given = []
    real = subprocess.Popen

    def recording(argv, *args, **kwargs):
        given.append((argv, "preexec_fn" in kwargs))
        return real(argv, *args, **kwargs)
    monkeypatch.setattr(children.subprocess, "Popen", recording)
    yield request.param, given


def _started(**kwargs) -> dict:
    with children.stop_signals_held():  # as a caller holds them: the child must not inherit that
        out = children.run([sys.executable, "-c", REPORT], timeout_s=60, text=True, **kwargs)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("reserves, address_space", [(False, CAP), (True, -1)])
def test_a_child_starts_alone_unblocked_capped_and_tied_to_its_starter(way, reserves, address_space):
    name, given = way
    assert _started(memory_bytes=CAP, reserves_address_space=reserves) == {
        "blocked": [], "address_space": address_space, "deathsig": 9, "session_leader": True}
    ((argv, preexec),) = [(argv, preexec) for argv, preexec in given if REPORT in argv]  # not the watchdog's
    assert (name == "stallbench_spawn") == (argv[0] == str(BUILD / children.SPAWN) and not preexec)


def test_a_program_that_cannot_be_found_is_popens_error(way, tmp_path):
    with pytest.raises(FileNotFoundError):
        children.run(["no-such-program-stallbench"], timeout_s=60)
    with pytest.raises(FileNotFoundError):
        children.run([str(tmp_path / "nothing-here")], timeout_s=60)


def _spawn(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(BUILD / children.SPAWN), *args], capture_output=True, text=True, timeout=30, **kwargs)


@pytest.mark.parametrize("args", [[], ["0", "1", "/bin/true"], ["lots", "1", "/bin/true", "true"],
                                  ["0", "-1x", "/bin/true", "true"], ["99999999999999999999999", "1", "/bin/true", "t"]])
def test_the_launcher_given_bad_arguments_says_how_to_call_it_and_exits_2(args):
    done = _spawn(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: stallbench_spawn ADDRESS_SPACE_BYTES ORCHESTRATOR_PID PATH ARGV0")


def test_a_program_the_launcher_cannot_execute_is_exit_127_with_its_path_and_why(tmp_path):
    import os

    plain = tmp_path / "not-executable"
    plain.write_text("#!/bin/sh\nexit 0\n")
    for path, why in ((tmp_path / "absent", "No such file or directory"), (plain, "Permission denied")):
        done = _spawn("0", str(os.getpid()), str(path), "x")
        assert done.returncode == 127, done.stderr
        assert done.stderr.strip() == f"stallbench_spawn: {path}: {why}"


def test_the_launcher_starts_nothing_when_the_orchestrator_it_names_is_not_its_parent(tmp_path):
    """The orchestrator gone before PR_SET_PDEATHSIG was set: its child must not run unwatched. Here the
    named orchestrator (pid 1) is not the launcher's parent (this test), as after such a death."""
    import os

    mark = tmp_path / "ran"
    done = _spawn("0", "1", "/bin/sh", "sh", "-c", f"touch {mark}")
    assert done.returncode == 127 and not mark.exists()
    done = _spawn("0", str(os.getpid()), "/bin/sh", "sh", "-c", f"touch {mark}")
    assert done.returncode == 0 and mark.exists()
