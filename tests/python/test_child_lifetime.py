"""No child outlives its command: the orchestrator is SIGKILLed (no handler, no atexit) while each
kind of child runs — a bench cell with the node it started, regex_check with its node engine,
stallbench_trace, node under trace --node — and no process of the run may be left. Processes of
a run are found by an environment variable every descendant inherits. Also: the memory caps
(RLIMIT_AS for native children, resident memory of the group for V8), the group kill (with the
groups ninja puts its steps in), and Ctrl-C and SIGTERM (also with SIGINT ignored at start, as a
script's background job has it) during ab's build, trace's tool, ab's rounds and a wait for the
store's lock: exit 130 or 143, no process left, nothing half made left."""
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from conftest import BUILD, DATA, ROOT
from stallbench_lib import children, node as nodejs
from stallbench_lib.catalogue import describe
from stallbench_lib.families.regex.engines import Engines

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
                    "--set", "length=100000", "--repetitions", "1"], "regex_server.js", tmp_path)
    # The cell's partial Google Benchmark JSON and the run's space reserve go with it.
    left = [p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp") or p.name == ".space-reserve"]
    assert not left


@needs_node
def test_sigkill_during_regex_check_leaves_neither_it_nor_its_node(tmp_path):
    checker = BUILD / "benches" / "regex_check"
    sigkill_during(_library_orchestrator(f"""
        from stallbench_lib import node as nodejs
        from stallbench_lib.families.regex import checker
        node = nodejs.find()[0]
        checker.run({str(checker)!r}, [f"node@{{node.line}}"], [("^(a+)+$", "")], ["a" * 40 + "!"],
                    {{node.line: node.path}})
        """), "regex_server.js", tmp_path)


def _program_engines() -> list[str]:
    """The engines of other languages this build has, each run in a program of its own."""
    table = Engines.from_family(describe(BUILD / "benches" / "bench_regex"))
    return [r["name"] for r in table.rows if r["runs_in"] == "program" and not r["per_node_line"] and r["available"]]


@pytest.mark.parametrize("engine", _program_engines())
def test_sigkill_during_regex_check_leaves_no_engine_program(engine, tmp_path):
    """An engine of another language runs in a program of its own, from its folder programs/<engine>/
    (its command line names it). A backtracking one is still on the first regex when the kill comes;
    an automaton answers it at once, and may be done before a look through /proc on a busy machine
    sees it (Go, at load 10: no process seen in 60 s), so the orchestrator checks again and again
    until it is killed."""
    checker = BUILD / "benches" / "regex_check"
    sigkill_during(_library_orchestrator(f"""
        from stallbench_lib.families.regex import checker
        while True:
            checker.run({str(checker)!r}, [{engine!r}], [("^(a+)+$", "")] * 3000, ["a" * 40 + "!"] * 20)
        """), f"programs/{engine}/", tmp_path)


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


def _gone(tag: str, timeout_s: float = 30) -> dict[int, str]:
    """What of the run is still alive once it had `timeout_s` to go (the watchdog leaves last)."""
    deadline = time.monotonic() + timeout_s
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    return tagged(tag)


def test_a_kill_takes_the_compilers_ninja_put_in_groups_of_their_own(tmp_path):
    """ninja starts each command in a process group of its own, so a Ctrl-C at the terminal reaches
    ninja alone; killing ninja's group used to leave its compilers compiling."""
    (tmp_path / "build.ninja").write_text("rule slow\n  command = sleep 600 && touch $out\n"
                                          "build a: slow\nbuild b: slow\n")
    tag = uuid.uuid4().hex
    proc = children.start(["ninja", "-j2", "-C", str(tmp_path)], stdout=subprocess.DEVNULL,
                          env={**os.environ, TAG: tag})
    try:
        wait_for(tag, "sleep 600", 60)
        groups = {os.getpgid(pid) for pid, line in tagged(tag).items() if "sleep 600" in line}
        assert proc.pid not in groups  # the compilers' stand-ins are not in ninja's group
        children.kill(proc)
        assert not _gone(tag)
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)


FAKE_CMAKE = """#!{python}
# cmake as `ab` calls it: configure writes a build.ninja whose one step never ends; --build runs
# the real ninja on it, which starts that step in a process group of its own, as it does compilers.
import os, sys
args = sys.argv[1:]
if "--build" in args:
    os.execvp("ninja", ["ninja", "-C", args[args.index("--build") + 1]])
build = args[args.index("-B") + 1]
os.makedirs(build, exist_ok=True)
open(os.path.join(build, "CMakeCache.txt"), "w").close()
with open(os.path.join(build, "build.ninja"), "w") as f:
    f.write("rule cc\\n  command = sleep 600 && touch $out\\nbuild slow.o: cc\\n")
"""


def _worktrees(home: Path) -> list[str]:
    """The repository's worktrees under this test's build/ab/<commit>: the tracking tests, which may
    run beside this one, add and remove worktrees of their own."""
    listed = subprocess.run(["git", "worktree", "list", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
    return [line for line in listed.stdout.splitlines() if line.startswith(f"worktree {home}/")]


def _interrupt(argv: list[str], needle, sig: int, tmp_path, env: dict | None = None,
               ignoring_sigint: bool = False, exit_within_s: float = 60) -> subprocess.Popen:
    """Starts a command, signals it once a process of its run has `needle` in its command line (or,
    when `needle` is a function, once needle(pid) is true) — SIGINT to its process group, as Ctrl-C
    does; SIGTERM to it alone, as `kill` does — and asserts that it ends with 128 + the signal and
    leaves no process of its run. `ignoring_sigint`: started the way a script starts a background job,
    with SIGINT ignored."""
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(ROOT / "scripts"),
           **(env or {})}
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignoring_sigint else None
    proc = subprocess.Popen([sys.executable, "-m", "stallbench_lib", *argv], env=env, cwd=tmp_path,
                            start_new_session=True, preexec_fn=ignore, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        if callable(needle):
            deadline = time.monotonic() + 120
            while not needle(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
        else:
            wait_for(tag, needle, 120)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=exit_within_s)
        assert proc.returncode == 128 + sig, err
        assert f"interrupted ({signal.Signals(sig).name})" in err or f"{signal.Signals(sig).name}: stopped" in err, err
        assert not _gone(tag), f"left running after {signal.Signals(sig).name}: {tagged(tag)}"
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.communicate()
    return proc


STOPS = [pytest.param(signal.SIGINT, True, id="SIGINT-to-a-background-job"),
         pytest.param(signal.SIGINT, False, id="SIGINT"), pytest.param(signal.SIGTERM, False, id="SIGTERM")]


@contextlib.contextmanager
def _new_revision(tmp_path):
    """A commit nobody has built (HEAD's tree, a message of its own), a stand-in cmake on PATH, and
    build/ab/<commit> removed afterwards."""
    fake = tmp_path / "bin" / "cmake"
    fake.parent.mkdir()
    fake.write_text(FAKE_CMAKE.format(python=sys.executable))
    fake.chmod(0o755)
    commit = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", "HEAD^{tree}", "-p",
                             "HEAD", "-m", f"interrupted build {uuid.uuid4().hex}"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    home = ROOT / "build" / "ab" / commit
    try:
        yield commit, home, {"PATH": f"{fake.parent}:{os.environ['PATH']}"}
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(home / "src")], cwd=ROOT, capture_output=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
        home.with_name(f"{commit}.lock").unlink(missing_ok=True)


@pytest.mark.parametrize("sig, ignoring_sigint", STOPS)
def test_ab_stopped_while_it_builds_a_revision_leaves_no_build_and_no_worktree(tmp_path, sig, ignoring_sigint):
    """A revision built by a stand-in cmake whose ninja never finishes: ab ends with 130 or 143,
    ninja and its step are gone, and so are the worktree and build folder it made; `git worktree
    list` is as before."""
    with _new_revision(tmp_path) as (commit, home, env):
        before = _worktrees(home)
        _interrupt(["ab", commit, commit, "--node", "none", "--out", str(tmp_path / "ab")], "sleep 600", sig, tmp_path,
                   env=env, ignoring_sigint=ignoring_sigint)
        assert _worktrees(home) == before
        assert not home.exists() and not (tmp_path / "ab").exists()


def test_ab_stopped_while_it_updates_an_earlier_build_keeps_it(tmp_path):
    """A worktree and build folder made earlier are the cache: an interrupted update leaves both."""
    with _new_revision(tmp_path) as (commit, home, env):
        subprocess.run(["git", "worktree", "add", "--detach", str(home / "src"), commit], cwd=ROOT, capture_output=True,
                       check=True)
        subprocess.run([str(tmp_path / "bin" / "cmake"), "-B", str(home / "build")], check=True)
        before = _worktrees(home)
        _interrupt(["ab", commit, commit, "--node", "none", "--out", str(tmp_path / "ab")], "sleep 600", signal.SIGINT,
                   tmp_path, env=env)
        assert _worktrees(home) == before
        assert (home / "src" / "CMakePresets.json").exists() and (home / "build" / "build.ninja").exists()


@pytest.mark.parametrize("sig, ignoring_sigint", STOPS)
def test_trace_stopped_while_its_tool_runs(tmp_path, sig, ignoring_sigint):
    scenario = tmp_path / "long.json"
    scenario.write_text('{"name": "long", "module": "cjs", "program": [{"op": "busy", "ms": 10000, "log": "done"}]}')
    _interrupt(["trace", "--no-build", str(scenario)], "stallbench_trace", sig, tmp_path,
               ignoring_sigint=ignoring_sigint)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ab_stopped_during_its_rounds_marks_both_runs_interrupted(tmp_path, sig):
    tiny = BUILD / "tests" / "tiny_bench"
    for side in ("a", "b"):
        (tmp_path / side / "benches").mkdir(parents=True)
        (tmp_path / side / "benches" / "bench_tiny").symlink_to(tiny)
    out = tmp_path / "ab"
    _interrupt(["ab", str(tmp_path / "a"), str(tmp_path / "b"), "--set", "n=100000000", "--node", "none",
                "--max-rounds", "3", "--out", str(out)], "--stallbench-records-fd", sig, tmp_path)  # a round's cell
    metas = [json.loads(p.read_text()) for p in out.glob("*/*/meta.json")]
    assert len(metas) == 2
    assert all(m.get("complete") is not True and m["interrupted"] == signal.Signals(sig).name for m in metas)
    assert not list(out.rglob("*.tmp")) and not (out / "ab.md").exists()


def _has_open(path: Path):
    def opened(pid: int) -> bool:
        with contextlib.suppress(OSError):
            return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd"))
        return False
    return opened


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_store_import_stopped_while_another_process_holds_the_store(tmp_path, sig):
    """SQLite waits for another writer's lock inside one C call, where no signal handler runs: the
    command used to hear a Ctrl-C only when its 60 s wait ended. (Its exit is waited for 30 s here,
    well under that and far over the couple of seconds it takes.)"""
    db = tmp_path / "history.sqlite"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE held (x)")
    holder.execute("BEGIN IMMEDIATE")
    try:
        _interrupt(["store", "import", str(DATA / "default_run"), "--store", str(db)], _has_open(db), sig, tmp_path,
                   exit_within_s=30)
    finally:
        holder.rollback()
    assert [name for (name,) in holder.execute("SELECT name FROM sqlite_master")] == ["held"]  # nothing stored


def test_a_child_another_thread_is_starting_is_not_taken_for_an_orphan():
    """When one thread's child ends and no other is registered, adopted orphans are killed; a child
    another thread has just forked, not yet registered, is not one of them (the regex sample check's
    engines, one per thread, lost one to SIGKILL about one run in five)."""
    from stallbench_lib import parallel
    argvs = [["true"] if i % 2 else ["sleep", "0.002"] for i in range(300)]
    codes = parallel.each(lambda argv: children.run(argv, timeout_s=60).returncode, argvs, workers=2)
    assert [c for c in codes if c != 0] == []
