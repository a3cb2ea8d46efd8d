"""Ctrl-C and SIGTERM stop every command whatever it waits on — a long cell, a big parse, a browser cell, a
build, an install of OS packages, a sweep of a user's program, the doctor's watch — with no traceback,
no process of its run left, and its partial output marked. Each wait is made far longer than the test's
patience (a repetition of minutes, a build step or a load of 600 s), and the test checks against the
run's own record that the work was cut short: stopped before its natural end, never after a wait for it.
The time from the signal to the exit is not asserted (a loaded machine makes any bound a guess); with
STALLBENCH_STOP_FIGURES=FILE each test appends it there as a JSON line (the figures of
docs/reliability.md), before its assertions, so that STALLBENCH_TREE=an older checkout measures that
tree's stops too (its command is run; the tests are this tree's). STALLBENCH_STOP_PARSE_MB sets the big
parse's document (default 40). Before the fix, a Ctrl-C in a long cell waited for the repetition to end
(75 s) and printed a thread's traceback."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import BUILD, ROOT
from stallbench_lib import node as nodejs
from test_browser import needs_browser
from test_child_lifetime import TAG, _gone, tagged

FIGURES = os.environ.get("STALLBENCH_STOP_FIGURES")
TREE = Path(os.environ.get("STALLBENCH_TREE", ROOT))  # the tree whose command is stopped
PARSE_MB = int(os.environ.get("STALLBENCH_STOP_PARSE_MB", "40"))
GUARD_S = 300  # a stop that takes longer is a hang: the test fails, the figure says "not stopped after"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _figure(kind: str, sig: int, measured: dict) -> None:
    if FIGURES:
        with open(FIGURES, "a") as f:
            f.write(json.dumps({"kind": kind, "signal": signal.Signals(sig).name, **measured,
                                "load": os.getloadavg()[0]}) + "\n")


def stopped(kind: str, argv: list[str], needle: str, sig: int, tmp_path, env: dict | None = None,
            settle_s: float = 1.0) -> tuple[subprocess.Popen, str, str]:
    """Runs the command until a process of its run has `needle` in its command line and `settle_s`
    more (the wait is under way), signals it (SIGINT to its group, as Ctrl-C; SIGTERM to it alone, as
    kill), and asserts that it ends with no traceback and no process of its run left. Returns the
    process, its stdout and stderr."""
    tag = uuid.uuid4().hex
    full = {**os.environ, TAG: tag, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(TREE / "scripts"),
            **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "stallbench_lib", *argv], env=full, cwd=tmp_path,
                            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not any(needle in line for pid, line in tagged(tag).items() if pid != proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        time.sleep(settle_s)
        signalled = time.monotonic()
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        while (any(needle in line for pid, line in tagged(tag).items() if pid != proc.pid)
               and time.monotonic() - signalled < 120):
            time.sleep(0.01)
        waited = time.monotonic() - signalled  # the work waited on is gone: the wait has stopped
        try:
            out, err = proc.communicate(timeout=GUARD_S - waited)  # a hang guard only: the figure is below
        except subprocess.TimeoutExpired:
            _figure(kind, sig, {"exit_s": None, "not_stopped_after_s": round(time.monotonic() - signalled)})
            raise
        exited = time.monotonic() - signalled
        left = _gone(tag)
        gone = time.monotonic() - signalled
        _figure(kind, sig, {"work_gone_s": round(waited, 3), "exit_s": round(exited, 3), "all_gone_s": round(gone, 3),
                            "exit": proc.returncode, "left": len(left),
                            "traceback": "Traceback" in err or "Exception in thread" in err})
        assert not left, f"left running after {signal.Signals(sig).name}: {left}"
        assert "Traceback" not in err and "Exception in thread" not in err, err
        return proc, out, err
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.communicate()


def _the_run(out):
    (run,) = [p for p in out.iterdir() if p.is_dir()]
    return run, json.loads((run / "meta.json").read_text())


def _interrupted_before_any_repetition(out, sig: int) -> None:
    """The run says it was interrupted, and no repetition of its cell ended (no row): the stop did not
    wait for the cell's natural end."""
    run, meta = _the_run(out)
    assert meta["complete"] is False and meta["interrupted"] == signal.Signals(sig).name
    assert not (run / "results.csv").exists() or len((run / "results.csv").read_text().splitlines()) <= 1
    assert not list(run.rglob("*.tmp")) and not (run / ".space-reserve").exists()


STOPS = [signal.SIGINT, signal.SIGTERM]


def _a_cell_stopped(kind: str, tmp_path, sig: int, args: list[str], needle: str, settle_s: float = 1.0,
                    node: str = "none") -> None:
    out = tmp_path / "out"
    proc, _, err = stopped(kind, [*args, "--no-build", "--no-report", "--node", node, "--repetitions", "1", "--out",
                                  str(out)], needle, sig, tmp_path, settle_s=settle_s)
    assert proc.returncode == 128 + sig, err
    _interrupted_before_any_repetition(out, sig)


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_long_cell(tmp_path, sig):
    """Four pbkdf2 jobs of 10^8 iterations on one pool thread: a repetition of minutes."""
    _a_cell_stopped("long cell", tmp_path, sig, ["run", "--filter", "^pool/saturation$", "--set", "iters=100000000",
                                                 "--set", "jobs=4", "--set", "pool=1", "--set", "runtime=stallbench",
                                                 "--set", "client=uv"], "--stallbench-records-fd")


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_big_parse(tmp_path, sig):
    """json --input of 40 MB (STALLBENCH_STOP_PARSE_MB), each walk repeated for a minute (min_time_ms=60000)."""
    document = tmp_path / "big.json"
    with open(document, "w") as f:  # 500,000 records make 40 MB
        f.write("[" + ",".join(json.dumps({"id": i, "name": "x" * 40, "tags": [1, 2, 3]})
                               for i in range(PARSE_MB * 12_500)) + "]")
    _a_cell_stopped("big parse", tmp_path, sig, ["json", "--input", str(document), "--set", "min_time_ms=60000",
                                                 "--set", "parser=nlohmann"], "--stallbench-records-fd", settle_s=2.0)


@needs_browser
@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_browser_cell(tmp_path, sig):
    """The price report over 10^9 rows inline on the page's main thread: minutes of one long task."""
    _a_cell_stopped("browser cell", tmp_path, sig, ["run", "--filter", "^browser/report$", "--set", "browser=chromium",
                                                    "--set", "strategy=inline", "--set", "chunk=0", "--set",
                                                    "rows=1000000000"], "long_task.mjs", settle_s=3.0,
                    node=nodejs.find()[0].line)  # the driver's Node: a brand-new machine has none on PATH


FAKE_CMAKE = """#!{python}
# cmake as `stallbench` calls it to build: the one step of the build never ends (ninja runs it in a
# process group of its own, as it runs compilers).
import os, sys
args = sys.argv[1:]
build = args[args.index("--build") + 1]
os.execvp("ninja", ["ninja", "-C", build])
"""


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_build(tmp_path, sig):
    """`json` builds before it runs; here the build's one step is `sleep 600 && touch done`."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "build.ninja").write_text("rule slow\n  command = sleep 600 && touch $out\nbuild done: slow\n"
                                       "build stallbench_commands: phony done\n")
    fake = tmp_path / "bin" / "cmake"
    fake.parent.mkdir()
    fake.write_text(FAKE_CMAKE.format(python=sys.executable))
    fake.chmod(0o755)
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    proc, _, err = stopped("build", ["json", "--no-report", "--node", "none", "--input", str(document), "--out",
                                     str(tmp_path / "out")], "sleep 600", sig, tmp_path,
                           env={"PATH": f"{fake.parent}:{os.environ['PATH']}", "STALLBENCH_BUILD_DIR": str(build)})
    assert proc.returncode == 128 + sig, err
    assert not (build / "done").exists() and not (tmp_path / "out").exists()  # the step never ended; no run began


FAKE_PACKAGE_TOOL = """#!/bin/sh
# dpkg-query finds nothing installed; apt-get's install never ends
[ "$(basename "$0")" = apt-get ] && exec sleep 600
exit 1
"""


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_an_install(tmp_path, sig):
    """`json` installs its OS packages before it builds; here apt-get's install is `sleep 600`."""
    fake = tmp_path / "bin"
    fake.mkdir()
    for name in ("dpkg-query", "apt-get"):
        (fake / name).write_text(FAKE_PACKAGE_TOOL)
        (fake / name).chmod(0o755)
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    proc, _, err = stopped("install", ["json", "--no-report", "--node", "none", "--input", str(document), "--out",
                                       str(tmp_path / "out")], "sleep 600", sig, tmp_path,
                           env={"PATH": f"{fake}:{os.environ['PATH']}", "STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert proc.returncode == 128 + sig, err
    assert not (tmp_path / "out").exists()  # the install never ended; no run began


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_sweep_of_a_program(tmp_path, node_path, sig):
    """sweep-pool --app with 600 s of load at its one size."""
    port = _port()
    example = ROOT / "workloads" / "pool_sweep" / "app" / "login_server.js"
    out = tmp_path / "out"
    proc, _, err = stopped("sweep", ["sweep-pool", "--no-build", "--no-report", "--app", f"{node_path} {example} {port}",
                                     "--url", f"http://127.0.0.1:{port}/login", "--sizes", "1", "--duration", "600",
                                     "--rate", "2", "--out", str(out)], "load.mjs", sig, tmp_path, settle_s=2.0)
    assert proc.returncode == 128 + sig, err
    run, meta = _the_run(out)
    assert meta["complete"] is False and meta["interrupted"] == signal.Signals(sig).name
    assert meta["cells"]["ok"] == 0 and not (run / ".space-reserve").exists()  # its 600 s never ended


def test_the_doctor_s_watch(tmp_path, node_path):
    """A watch of up to 600 s: Ctrl-C ends it (the diagnosis follows, over what was watched); SIGTERM
    stops the doctor."""
    program = ROOT / "tests" / "python" / "data" / "doctor" / "does_neither.js"
    argv = ["doctor", "--no-build", "--no-report", "--app", f"{node_path} {program} {_port()}", "--duration", "600",
            "--out", str(tmp_path / "out")]
    proc, out, err = stopped("doctor watch", argv, str(program), signal.SIGINT, tmp_path, settle_s=3.0)
    assert proc.returncode == 0 and "watch ended by SIGINT" in out, err
    seconds = int(out.split("watch ended by SIGINT after ")[1].split()[0])
    assert seconds < 600  # ended by the signal, not by the watch's limit
    proc, _, err = stopped("doctor watch", [*argv[:-1], str(tmp_path / "out2")], str(program), signal.SIGTERM,
                           tmp_path, settle_s=3.0)
    assert proc.returncode == 143 and not (tmp_path / "out2").exists(), err
