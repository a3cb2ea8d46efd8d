"""What the hostile-state table (test_hostile_states.py) needs to set its cases up: the command run
as a user runs it (a process of its own, the tree under test on PYTHONPATH), a build directory with
the tiny fixture family alone (a cell of a second), finished runs to damage, and the checks every
case shares. Only the command line is used, never the library, so that the same table runs against
an older tree (STALLBENCH_TREE) for the before/after count of docs/reliability.md."""
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

from conftest import BUILD, ROOT
from test_child_lifetime import TAG, _gone as gone, tagged

TREE = Path(os.environ.get("STALLBENCH_TREE", ROOT))  # the tree whose command is tried
DEEP = 5000  # levels of nesting: Python's own parsers give up near 1000


def fixture_build(tmp: Path, name: str = "bench_tiny", binary: str = "tiny_bench") -> Path:
    """A build directory whose one family is a fixture of tests/cpp (tiny: a sum of squares)."""
    build = tmp / f"build-{name}"
    (build / "benches").mkdir(parents=True, exist_ok=True)
    link = build / "benches" / name
    with contextlib.suppress(FileExistsError):  # two commands started at once both make it
        link.symlink_to(BUILD / "tests" / binary)
    return build


CRASHING = """#!/bin/sh
# the tiny bench, whose every cell dies of SIGSEGV (describing itself still works)
case " $* " in *--stallbench-records-fd*) kill -SEGV $$;; esac
exec {real} "$@"
"""


def crashing_build(tmp: Path) -> Path:
    """A build directory whose tiny family lists its cells as usual and crashes in every one."""
    build = tmp / "build-crashing"
    (build / "benches").mkdir(parents=True, exist_ok=True)
    bench = build / "benches" / "bench_tiny"
    bench.write_text(CRASHING.format(real=BUILD / "tests" / "tiny_bench"))
    bench.chmod(0o755)
    return build


def environment(tmp: Path, extra: dict | None = None) -> dict:
    return {**os.environ, "STALLBENCH_BUILD_DIR": str(fixture_build(tmp)), "PYTHONPATH": str(TREE / "scripts"),
            "STALLBENCH_NODE": "none", "STALLBENCH_STORE": str(tmp / "no-store.sqlite"), **(extra or {})}


def command(tmp: Path, *args: str, env: dict | None = None, timeout: float = 300, **popen) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stallbench_lib", *args], capture_output=True, text=True,
                          timeout=timeout, env=environment(tmp, env), cwd=tmp, **popen)


def tiny_run(tmp: Path, out: Path, *extra: str, env: dict | None = None, n: str = "1000") -> subprocess.CompletedProcess:
    return command(tmp, "run", "--no-build", "--no-report", "--filter", "^tiny/sum$", "--set", f"n={n}",
                   "--repetitions", "1", *extra, "--out", str(out), env=env)


def run_dirs(out: Path) -> list[Path]:
    return sorted(p.parent for p in out.rglob("meta.json")) if out.exists() else []


def one_finished_run(tmp: Path) -> Path:
    """A finished tiny run, made once per folder."""
    out = tmp / "finished"
    if not run_dirs(out):
        done = tiny_run(tmp, out)
        assert done.returncode == 0, done.stderr
    return run_dirs(out)[0]


def a_store_with_a_run(tmp: Path) -> Path:
    store = tmp / "store.sqlite"
    done = command(tmp, "store", "import", str(one_finished_run(tmp)), "--store", str(store))
    assert done.returncode == 0, done.stderr
    return store


def nested_json(levels: int = DEEP) -> str:
    return "[" * levels + "]" * levels


def nested_toml(levels: int = DEEP) -> str:
    return "x = " + "[" * levels + "]" * levels + "\n"


def one_line(done: subprocess.CompletedProcess, code: int | None = None, words: str = "") -> None:
    """The refusal every bad input and state gets: one line on stderr, no traceback, the code given
    (any non-zero one when None)."""
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert (done.returncode == code) if code is not None else done.returncode not in (0, None), \
        f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert len(said) == 1, done.stderr[-2000:]
    assert words in said[0], said[0]


def no_traceback(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "Exception in thread" not in done.stderr, done.stderr[-3000:]


def signalled_during(tmp: Path, args: list[str], needle: str, sig: int, env: dict | None = None,
                     preexec=None) -> tuple[subprocess.Popen, str, dict[int, str]]:
    """Runs the command until a process of its run has `needle` in its command line, sends `sig`
    (SIGINT to the group, as Ctrl-C; others to the command alone); returns the process, its stderr and
    what of its run is still alive afterwards."""
    tag = uuid.uuid4().hex
    proc = subprocess.Popen([sys.executable, "-m", "stallbench_lib", *args], env=environment(tmp, {TAG: tag, **(env or {})}),
                            cwd=tmp, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec)
    try:
        deadline = time.monotonic() + 300
        while not any(needle in line for pid, line in tagged(tag).items() if pid != proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        time.sleep(0.5)
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        return proc, err, gone(tag)
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.communicate()


def meta(run: Path) -> dict:
    return json.loads((run / "meta.json").read_text())


def stored_ids(store: Path) -> list[str]:
    with sqlite3.connect(store) as db:
        return [row[0] for row in db.execute("SELECT run_id FROM runs ORDER BY run_id")]
