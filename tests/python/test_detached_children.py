"""Nothing a user's program starts outlives the command: a Node server that detaches one helper
(setsid, its parent alive) and double-forks another (its parent gone at once: an orphan in a session
of its own) leaves neither behind when `doctor` or `sweep-pool --app` end — normally, on SIGTERM, and
when the orchestrator is SIGKILLed (then the watchdog). Before the orchestrator became a child
subreaper and killed what was detached before the program's own group, both helpers survived all of
these (docs/reliability.md)."""
import os
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest

from conftest import BUILD, DATA, ROOT
from stallbench_lib import node as nodejs
from stallbench_lib.probe import preload

SERVER = DATA / "detached" / "server_with_helpers.js"


@pytest.fixture(scope="module")
def node_path():
    if preload.find(BUILD) is None:
        pytest.skip(f"the pool probe is not built: {preload.missing_reason(BUILD)}")
    node, why = nodejs.find()
    if node is None:
        pytest.skip(why)
    return node.path


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def helpers(mark: str) -> dict[int, str]:
    """pid -> command line of every live helper of this mark (zombies left out: they run nothing)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
        except OSError:
            continue
        if line.startswith(f"sleep {mark}"):
            found[int(name)] = line
    return found


def _left_after(mark: str, timeout_s: float = 10) -> dict[int, str]:
    """The helpers still alive once they had `timeout_s` to go (the watchdog acts after the command)."""
    deadline = time.monotonic() + timeout_s
    while helpers(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    return helpers(mark)


def _command(node_path: str, mark: str, tmp_path, command: str) -> list[str]:
    port = _port()
    app = ["--app", f"{node_path} {SERVER} {port} {mark}"]
    if command == "doctor":
        rest = ["--duration", "3"]
    else:
        rest = ["--url", f"http://127.0.0.1:{port}/", "--sizes", "1", "--duration", "1", "--rate", "2"]
    return [sys.executable, "-m", "stallbench_lib", command, "--no-build", "--no-report", *app, *rest,
            "--out", str(tmp_path / "out")]


def _mark() -> str:
    return f"600.{uuid.uuid4().int % 10**9}"  # sleep's argument: a number no other test uses


def _started(mark: str, proc: subprocess.Popen, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while len(helpers(mark)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)


ENV = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(ROOT / "scripts")}


@pytest.mark.parametrize("command", ["doctor", "sweep-pool"])
@pytest.mark.parametrize("end", ["normal", "SIGTERM", "SIGKILL"])
def test_a_detached_and_a_double_forked_helper_are_gone_when_the_command_ends(tmp_path, node_path, command, end):
    mark = _mark()
    proc = subprocess.Popen(_command(node_path, mark, tmp_path, command), env=ENV, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _started(mark, proc)
        assert {line.split()[1][-1] for line in helpers(mark).values()} == {"1", "2"}  # both made
        if end != "normal":
            proc.send_signal(getattr(signal, end))
        out, err = proc.communicate(timeout=300)
        expected = {"normal": 0, "SIGTERM": 143, "SIGKILL": -signal.SIGKILL}[end]
        assert proc.returncode == expected, err
        assert "Traceback" not in err
        assert not _left_after(mark), f"left after {command} ended ({end}): {helpers(mark)}"
    finally:
        proc.kill()
        proc.communicate()
        for pid in helpers(mark):
            os.kill(pid, signal.SIGKILL)
