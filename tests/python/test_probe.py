"""The pool probe (workloads/probe/): its addon loads in every installed Node line and records
canaries, loop delay and utilisation; a canary on an idle pool waits a small part of a pbkdf2 job,
one behind two jobs at pool 2 waits about what is left of them; the outstanding limit bounds memory;
samples survive SIGTERM (the program's own handling kept) and an uncaught exception; a bad setting,
an output that cannot be written and a Node without Node-API 8 are one line and exit 2."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import BUILD, DATA
from stallbench_lib import node as nodejs
from stallbench_lib.probe import preload, trace as probe_trace
from stallbench_lib.probe.window import window

PROBE_DATA = DATA / "probe"


@pytest.fixture(scope="module")
def probe():
    found = preload.find(BUILD)
    if found is None:
        pytest.skip(f"the pool probe is not built: {preload.missing_reason(BUILD)}")
    return found


@pytest.fixture(scope="module")
def newest():
    return nodejs.resolve([list(nodejs.pinned())[-1]])[0]


def _installed_lines():
    """Every pinned line, each skipped with its reason when not installed (the newest is installed by
    scripts/test; `scripts/bootstrap --node all` installs the rest)."""
    for line in nodejs.pinned():
        path = nodejs.installed_path(line)
        marks = [] if path else [pytest.mark.skip(reason=f"Node {line} is not installed (scripts/bootstrap --node {line})")]
        yield pytest.param(line, marks=marks, id=f"node{line}")


def _run(node_path: str, probe, out, code: str, env: dict | None = None, timeout: float = 60):
    return subprocess.run([node_path, "-e", code], env={**preload.environment(probe, out, 200), **(env or {})},
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("line", _installed_lines())
def test_the_probe_loads_and_records_in_every_installed_line(tmp_path, probe, line):
    out = tmp_path / "probe.jsonl"
    node = nodejs.resolve([line])[0]
    result = _run(node.path, probe, out, "setTimeout(() => {}, 1500)")
    assert result.returncode == 0, result.stderr
    (t,) = probe_trace.read(out).values()
    assert t.start["node"] == node.version and int(t.start["napi"]) >= 8
    assert t.canaries and all(c.wait >= 0 and c.delivery >= 0 for c in t.canaries)
    assert t.periods and sum(len(p.loop_delay) for p in t.periods) > 10
    assert t.end["why"] == "exit" and t.end["whole_life_loop_delay_ms"]["count"] > 0
    assert t.startup_ms is not None


def test_a_canary_waits_for_a_thread_only_when_none_is_free(newest, tmp_path):
    addon = (BUILD / preload.ADDON).resolve()
    result = subprocess.run([newest.path, str(PROBE_DATA / "canary_shape.js"), str(addon), "1000000"],
                            env={**os.environ, "UV_THREADPOOL_SIZE": "2"}, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    shape = json.loads(result.stdout.strip().splitlines()[-1])
    idle = sorted(shape["idle_waits"])
    assert idle[len(idle) // 2] < shape["alone_ms"] / 10  # a free thread takes it at once
    behind = shape["behind"]
    # Submitted a quarter of a job after two jobs filled the pool: it starts when one of them frees its
    # thread (about what was left of the job), and its completion comes after that job's callback.
    left = shape["first_done"] - behind["submitted"]
    assert behind["started"] - behind["submitted"] >= 0.5 * left
    assert behind["completed"] >= shape["first_done"]
    assert shape["limited"] == {"accepted": 3, "skipped": 2, "outstanding": 3}


def test_samples_survive_sigterm_and_the_program_still_dies_of_it(newest, probe, tmp_path):
    out = tmp_path / "probe.jsonl"
    proc = subprocess.Popen([newest.path, "-e", "setInterval(() => {}, 1000)"],
                            env=preload.environment(probe, out, 200), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (out.exists() and b'"canaries"' in out.read_bytes()) and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM
    finally:
        proc.kill()
        proc.wait()
    (t,) = probe_trace.read(out).values()
    assert t.end["why"] == "SIGTERM" and t.canaries


def test_a_program_s_own_sigterm_handling_is_kept(newest, probe, tmp_path):
    out = tmp_path / "probe.jsonl"
    proc = subprocess.Popen([newest.path, str(PROBE_DATA / "signal_handler.js")], env=preload.environment(probe, out),
                            stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 7
    finally:
        proc.kill()
        proc.wait()
    assert "shutting down" in proc.stdout.read()
    (t,) = probe_trace.read(out).values()
    assert t.end["why"] == "SIGTERM"


def test_samples_survive_an_uncaught_exception(newest, probe, tmp_path):
    out = tmp_path / "probe.jsonl"
    result = _run(newest.path, probe, out, "setTimeout(() => { throw new Error('boom') }, 1200)")
    assert result.returncode == 1 and "boom" in result.stderr
    (t,) = probe_trace.read(out).values()
    assert t.end["why"] == "uncaughtException" and t.canaries


def test_a_canary_still_waiting_at_the_end_counts_as_a_lower_bound(newest, probe, tmp_path):
    # The one pool thread blocks opening a FIFO that has no writer until the probe has written its
    # end record, so canaries are queued behind it at exit however fast this machine is (a pbkdf2
    # job of fixed size could end first on a fast one). Exit then waits for the thread: the FIFO is
    # opened for writing once the end record is there.
    out, fifo = tmp_path / "probe.jsonl", tmp_path / "blocks-the-pool"
    os.mkfifo(fifo)
    code = (f"setTimeout(() => {{ require('fs').open({json.dumps(str(fifo))}, 'r', () => {{}}); "
            "setTimeout(() => process.exit(0), 400); }, 300)")
    proc = subprocess.Popen([newest.path, "-e", code], env={**preload.environment(probe, out, 200),
                            "UV_THREADPOOL_SIZE": "1"}, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while '"type":"end"' not in (out.read_text() if out.exists() else "") and proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # a reader is waiting: this lets it go
        os.close(writer)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    (t,) = probe_trace.read(out).values()
    assert t.pending()  # the one thread was blocked when the program exited
    w = window(t, t.start["t"], t.end["t"])
    assert w.censored == len(t.pending()) and w.wait.max >= max(t.end["t"] - s for s in t.pending()) - 1e-6


@pytest.mark.parametrize("setting, value, words", [
    ("STALLBENCH_PROBE_RATE", "abc", 'STALLBENCH_PROBE_RATE="abc" is not a rate'),
    ("STALLBENCH_PROBE_RATE", "0", "valid values are 1-1000"),
    ("STALLBENCH_PROBE_FLUSH_MS", "5", "valid values are 100-60000"),
    ("STALLBENCH_PROBE_OUT", "/nonexistent/probe.jsonl", "cannot write /nonexistent/probe.jsonl (ENOENT)"),
    ("STALLBENCH_PROBE_OUT", "fd:987", "descriptor 987 is not open"),
])
def test_a_bad_setting_is_one_line_and_exit_2_before_the_program_runs(newest, probe, tmp_path, setting, value, words):
    result = _run(newest.path, probe, tmp_path / "probe.jsonl", "console.log('ran')", {setting: value})
    assert result.returncode == 2 and "ran" not in result.stdout
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_node_without_node_api_8_is_refused(newest, probe, tmp_path):
    old = tmp_path / "old_napi.cjs"
    old.write_text("Object.defineProperty(process, 'versions', { value: { ...process.versions, napi: '7' } });\n")
    env = preload.environment(probe, tmp_path / "probe.jsonl")
    env["NODE_OPTIONS"] = f'--require "{old}" ' + env["NODE_OPTIONS"]
    result = subprocess.run([newest.path, "-e", "console.log('ran')"], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "ran" not in result.stdout
    assert "has Node-API 7; the probe needs Node-API 8" in result.stderr


def test_a_file_of_another_format_is_refused_with_one_line(tmp_path):
    path = tmp_path / "probe.jsonl"
    path.write_text('{"pid": 1, "type": "start", "format": 99}\n')
    with pytest.raises(probe_trace.UsageError, match=f"probe format 99 is not {probe_trace.FORMAT}"):
        probe_trace.read(path)
