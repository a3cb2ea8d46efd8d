"""No child outlives its command: the orchestrator is SIGKILLed (no handler, no atexit) while each
kind of child runs — a bench cell with the node it started, regex_check with its node engine,
stallbench_trace, node under trace --node — and no process of the run may be left. Processes of
a run are found by an environment variable every descendant inherits. Also: the memory caps
(RLIMIT_AS for native children, resident memory of the group for V8) and the group kill."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from conftest import BUILD, ROOT
from stallbench_lib import children, node as nodejs

NODE, _ = nodejs.find()
TAG = "STALLBENCH_TEST_TAG"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def tagged(tag: str) -> dict[int, str]:
    """pid -> command line of every live process carrying the tag."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if f"{TAG}={tag}".encode() not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue  # a zombie's parent is about to reap it; it runs nothing
        except OSError:
            continue
        found[int(name)] = cmdline
    return found


def wait_for(tag: str, needle: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(needle in c for c in tagged(tag).values()):
            return
        time.sleep(0.05)
    raise AssertionError(f"no process of the run ran {needle!r} within {timeout_s} s: {tagged(tag)}")


def sigkill_during(argv: list[str], needle: str, tmp_path, start_timeout_s: float = 60) -> None:
    """Starts argv (an orchestrator), waits until a process of its run has `needle` in its command
    line, SIGKILLs the orchestrator and asserts that every process of the run is gone soon after."""
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag, "STALLBENCH_BUILD_DIR": str(BUILD)}
    orchestrator = subprocess.Popen(argv, env=env, cwd=tmp_path, start_new_session=True,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(tag, needle, start_timeout_s)
        orchestrator.send_signal(signal.SIGKILL)
        orchestrator.wait()
        deadline = time.monotonic() + 5
        while tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not tagged(tag), f"left running after SIGKILL of the orchestrator: {tagged(tag)}"
    finally:
        for pid in tagged(tag):  # never leave them to the next test
            os.kill(pid, signal.SIGKILL)
        orchestrator.kill()
        orchestrator.wait()


def _library_orchestrator(code: str) -> list[str]:
    """A Python orchestrator that calls the library the way the commands do."""
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT / 'scripts')!r})\n" + textwrap.dedent(code)]


@needs_node
def test_sigkill_during_a_bench_cell_leaves_neither_the_bench_nor_its_node(tmp_path):
    """The regex bench runs V8's backtracking in a node it started (a grandchild of the orchestrator)."""
    sigkill_during([str(ROOT / "scripts" / "stallbench"), "run", "--no-build", "--no-report", "--out", str(tmp_path),
                    "--filter", "^regex/match$", "--set", "engine=node", "--set", "pattern=coupon-code",
                    "--set", "length=100000", "--repetitions", "1"], "node_regex.js", tmp_path)
    # The cell's partial Google Benchmark JSON and the run's space reserve go with it.
    left = [p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp") or p.name == ".space-reserve"]
    assert not left


@needs_node
def test_sigkill_during_regex_check_leaves_neither_it_nor_its_node(tmp_path):
    checker = BUILD / "benches" / "regex_check"
    sigkill_during(_library_orchestrator(f"""
        from stallbench_lib import node as nodejs
        from stallbench_lib.redos import checker
        node = nodejs.find()[0]
        checker.run({str(checker)!r}, [f"node@{{node.line}}"], [("^(a+)+$", "")], ["a" * 40 + "!"],
                    {{node.line: node.path}})
        """), "node_regex.js", tmp_path)


def test_sigkill_during_stallbench_trace_leaves_no_tool(tmp_path):
    scenario = tmp_path / "long.json"
    scenario.write_text('{"name": "long", "module": "cjs", "program": [{"op": "busy", "ms": 10000, "log": "done"}]}')
    sigkill_during([str(ROOT / "scripts" / "stallbench"), "trace", "--no-build", str(scenario)],
                   "stallbench_trace", tmp_path)


@needs_node
def test_sigkill_during_node_under_trace_leaves_no_node(tmp_path):
    script = tmp_path / "spin.cjs"
    script.write_text("const { spawn } = require('child_process');\n"
                      "spawn(process.execPath, ['-e', 'for (;;) {}']);  // a child of the user's own\n"
                      "for (;;) {}\n")
    sigkill_during(_library_orchestrator(f"""
        from stallbench_lib import node as nodejs
        nodejs.run_json(nodejs.find()[0], {str(script)!r}, 60)
        """), "for (;;)", tmp_path)


def test_a_native_child_over_its_cap_fails_its_allocation():
    done = children.run([sys.executable, "-c", "b = bytearray(512 << 20)"], timeout_s=60, memory_bytes=256 << 20)
    assert done.returncode != 0 and b"MemoryError" in done.stderr


def test_a_runtime_that_reserves_address_space_is_capped_on_resident_memory():
    """Address space stays free (V8 reserves gigabytes it never touches); touched pages count."""
    grow = "import time\nb = []\nwhile True:\n    b.append(bytearray(16 << 20)); time.sleep(0.01)"
    done = children.run([sys.executable, "-c", grow], timeout_s=60, memory_bytes=256 << 20,
                        reserves_address_space=True)
    assert done.returncode == -signal.SIGKILL
    assert "over its 256 MiB memory cap" in done.memory_kill


def test_the_whole_group_is_killed_on_timeout():
    tag = uuid.uuid4().hex
    with pytest.raises(subprocess.TimeoutExpired):
        children.run(["sh", "-c", "sleep 60 & sleep 60"], timeout_s=0.5, env={**os.environ, TAG: tag})
    time.sleep(0.2)
    assert not tagged(tag)
