"""The hostile-state table: every command against text that could become a control message, signals,
programs that detach helpers, runs that could be lost, damaged or odd state (stores, nesting, paths),
closed pipes, and the leftovers and misreports of issue 36 — seven classes, each case one way a user
or a machine can surprise stallbench. Each case states what must hold; docs/reliability.md gives
the count that held before this work and after (STALLBENCH_TREE=an older checkout runs the same
table against it: only the command line is used)."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import BUILD, DATA
from test_detached_children import _mark, _port, helpers
from hostile_states import (a_store_with_a_run, command, crashing_build, environment, fixture_build, meta, nested_json,
                            nested_toml, no_traceback, one_finished_run, one_line, run_dirs, signalled_during,
                            stored_ids, tiny_run)

CASES = []


def case(kind: str):
    def register(check):
        CASES.append(pytest.param(check, id=f"{kind}:{check.__name__}"))
        return check
    return register


# --- 1. text that could become a control message -------------------------------------------------

@case("injection")
def out_carrying_a_watch_request(tmp):
    victim = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        out = tmp / f"a\nwatch {victim.pid} 1\nb"
        done = tiny_run(tmp, out, n="100000000")  # a cell long enough for the watchdog to poll
        assert done.returncode == 0, done.stderr
        assert victim.poll() is None, "an unrelated process group was killed"
    finally:
        victim.kill()
        victim.wait()


@case("injection")
def out_carrying_a_remove_request_then_sigkill(tmp):
    victim = tmp / "victim"
    victim.write_text("keep")
    out = tmp / f"victim\nremove {victim}\nx"
    _, _, left = signalled_during(tmp, ["run", "--no-build", "--no-report", "--filter", "^tiny/sum$", "--set",
                                        "n=100000000", "--repetitions", "200", "--out", str(out)],
                                  "--stallbench-records-fd", signal.SIGKILL)
    assert not left and victim.read_text() == "keep"


@case("injection")
def out_with_control_characters_and_line_separators(tmp):
    out = tmp / "ctl\r\x1b[2J\x7f\u2028\u0085\t\x01 out"
    done = tiny_run(tmp, out)
    assert done.returncode == 0, done.stderr
    (run,) = run_dirs(out)
    assert meta(run)["complete"] is True and (run / "results.csv").read_text().count("\n") == 3


@case("injection")
def set_value_with_a_newline(tmp):
    one_line(command(tmp, "run", "--no-build", "--filter", "^tiny/sum$", "--set", "n=1000\nwatch 1 1", "--out",
                     str(tmp / "out")), 2)


@case("injection")
def filter_with_a_newline(tmp):
    one_line(command(tmp, "run", "--no-build", "--filter", "^tiny/sum$\nwatch 1 1", "--out", str(tmp / "out")), 2)
    assert not (tmp / "out").exists()


@case("injection")
def app_with_a_newline(tmp):
    one_line(command(tmp, "doctor", "--no-build", "--app", "sleep 5\nwatch 1 1", "--out", str(tmp / "out")), 2)


@case("injection")
def scenario_path_and_label_with_newlines(tmp):
    folder = tmp / "dir\nwatch 1 1"
    folder.mkdir()
    scenario = folder / "a\nb\u2028.json"
    scenario.write_text('{"name": "label\\nwatch 1 1\\u0000\\u2028\\u001b", "module": "cjs", '
                        '"program": [{"op": "log", "text": "x"}]}')
    done = command(tmp, "trace", "--no-build", "--node", "none", str(scenario), env={"STALLBENCH_BUILD_DIR": str(BUILD)})
    no_traceback(done)
    assert done.returncode in (0, 2), done.stderr


@case("injection")
def pattern_file_with_a_newline_and_control_characters(tmp):
    catalogue = tmp / "p\nwatch 1 1.toml"
    catalogue.write_text('[[pattern]]\nname = "ctl"\nregex = "a\\u0000\\n\\r+b"\npump = "a"\nsource = "test"\n')
    done = command(tmp, "regex", "--no-build", "--patterns", str(catalogue), "--engines", "re2", "--lengths", "8",
                   "--no-report", "--out", str(tmp / "out"), env={"STALLBENCH_BUILD_DIR": str(BUILD)})
    no_traceback(done)
    assert done.returncode in (0, 2), done.stderr


@case("injection")
def store_path_with_a_newline(tmp):
    done = command(tmp, "store", "list", "--store", str(tmp / "s\nwatch 1 1.sqlite"))
    assert done.returncode == 0 and "0 runs" in done.stdout, done.stderr


# --- 2. signals ---------------------------------------------------------------------------------

LONG_TINY = ["run", "--no-build", "--no-report", "--filter", "^tiny/sum$", "--set", "n=100000000", "--repetitions",
             "200"]


@case("signals")
def sigint_during_a_cell(tmp):
    proc, err, left = signalled_during(tmp, [*LONG_TINY, "--out", str(tmp / "out")], "--stallbench-records-fd",
                                       signal.SIGINT)
    assert proc.returncode == 130 and not left and "Exception in thread" not in err, err
    (run,) = run_dirs(tmp / "out")
    assert meta(run)["interrupted"] == "SIGINT" and not (run / ".space-reserve").exists()


@case("signals")
def sigterm_during_a_cell(tmp):
    proc, err, left = signalled_during(tmp, [*LONG_TINY, "--out", str(tmp / "out")], "--stallbench-records-fd",
                                       signal.SIGTERM)
    assert proc.returncode == 143 and not left and "Exception in thread" not in err, err


@case("signals")
def sigint_while_sigint_was_ignored_at_start(tmp):
    proc, err, left = signalled_during(tmp, [*LONG_TINY, "--out", str(tmp / "out")], "--stallbench-records-fd",
                                       signal.SIGINT, preexec=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert proc.returncode == 130 and not left, err


@case("signals")
def sigint_while_a_cell_prepares_forever(tmp):
    """The cell's prepare step waits on a FIFO nobody writes: its first record never comes."""
    fifo = tmp / "never"
    os.mkfifo(fifo)
    build = fixture_build(tmp, "bench_prepare", "prepare_bench")
    proc, err, left = signalled_during(tmp, ["run", "--no-build", "--no-report", "--filter", "^prepare/prepared$",
                                             "--out", str(tmp / "out")], "--stallbench-records-fd", signal.SIGINT,
                                       env={"STALLBENCH_BUILD_DIR": str(build),
                                            "STALLBENCH_TEST_PREPARE_FIFO": str(fifo)})
    assert proc.returncode == 130 and not left and "Exception in thread" not in err, err


@case("signals")
def sigint_then_sigint_again(tmp):
    """A second Ctrl-C while the first one's cleanup runs."""
    proc = subprocess.Popen([sys.executable, "-m", "stallbench_lib", *LONG_TINY, "--out", str(tmp / "out")],
                            env=environment(tmp), cwd=tmp, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not list((tmp / "out").rglob("*.log")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        os.killpg(proc.pid, signal.SIGINT)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130 and "Traceback" not in err and "Exception" not in err, err
    finally:
        proc.kill()
        proc.communicate()


# --- 3. what a user's program starts ----------------------------------------------------------

def _node_or_skip() -> str:
    from stallbench_lib import node as nodejs

    node, why = nodejs.find()
    if node is None:
        pytest.skip(why)
    return node.path


def _program_with_helpers(tmp, which: str, sig: int | None) -> dict[int, str]:
    """What is left of the helpers once `which` ended (normally, or on `sig`) and had 10 s more."""
    node = _node_or_skip()
    port = _port()
    mark = _mark()
    app = ["--app", f"{node} {DATA / 'detached' / 'server_with_helpers.js'} {port} {mark}"]
    rest = (["--duration", "3"] if which == "doctor" else
            ["--url", f"http://127.0.0.1:{port}/", "--sizes", "1", "--duration", "1", "--rate", "2"])
    env = {"STALLBENCH_BUILD_DIR": str(BUILD), "STALLBENCH_NODE": node}
    args = [which, "--no-build", "--no-report", *app, *rest, "--out", str(tmp / "out")]
    if sig is not None:  # what of the run was left once it had time to go (then killed, for the next test)
        _, _, left = signalled_during(tmp, args, f"sleep {mark}2", sig, env=env)
        return {pid: line for pid, line in left.items() if line.startswith(f"sleep {mark}")}
    no_traceback(command(tmp, *args, env=env))
    deadline = time.monotonic() + 10
    while helpers(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = helpers(mark)
    for pid in left:  # never leave them to the next test
        os.kill(pid, signal.SIGKILL)
    return left


@case("detached")
def doctor_ends_with_a_detached_and_a_double_forked_helper(tmp):
    assert not _program_with_helpers(tmp, "doctor", None)


@case("detached")
def sweep_ends_with_a_detached_and_a_double_forked_helper(tmp):
    assert not _program_with_helpers(tmp, "sweep-pool", None)


@case("detached")
def doctor_stopped_by_sigterm_with_helpers(tmp):
    assert not _program_with_helpers(tmp, "doctor", signal.SIGTERM)


@case("detached")
def doctor_sigkilled_with_helpers(tmp):
    assert not _program_with_helpers(tmp, "doctor", signal.SIGKILL)


@case("detached")
def sweep_stopped_by_sigterm_with_helpers(tmp):
    assert not _program_with_helpers(tmp, "sweep-pool", signal.SIGTERM)


@case("detached")
def sweep_sigkilled_with_helpers(tmp):
    assert not _program_with_helpers(tmp, "sweep-pool", signal.SIGKILL)


# --- 4. runs that could be lost -------------------------------------------------------------------

def _two_at_once(tmp, make) -> list:
    results = [None, None]
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, make(i))) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@case("runs")
def two_runs_of_one_commit_differ_in_more_than_their_start_second(tmp):
    """Two folders, or two machines, starting a run of one commit in the same second must not make one
    id: the ids differ once their time stamps are set aside (whether or not these two shared a second)."""
    done = _two_at_once(tmp, lambda i: tiny_run(tmp, tmp / f"out{i}"))
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done]
    (a,), (b,) = run_dirs(tmp / "out0"), run_dirs(tmp / "out1")
    assert a.name.split("-", 1)[1] != b.name.split("-", 1)[1], (a.name, b.name)


@case("runs")
def two_runs_stored_at_once_are_both_stored(tmp):
    store = tmp / "shared.sqlite"
    done = _two_at_once(tmp, lambda i: tiny_run(tmp, tmp / f"out{i}", "--store", str(store)))
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done]
    assert len(stored_ids(store)) == 2, [d.stdout for d in done]


@case("runs")
def a_different_run_under_a_stored_id_is_refused(tmp):
    store = a_store_with_a_run(tmp)
    original = one_finished_run(tmp)
    other = tmp / "other" / original.name
    shutil.copytree(original, other)
    (other / "results.csv").write_text((other / "results.csv").read_text().replace(",ok,", ",error,", 1))
    done = command(tmp, "store", "import", str(other), "--store", str(store))
    assert done.returncode != 0 and original.name in done.stderr + done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and stored_ids(store) == [original.name]


@case("runs")
def the_same_run_imported_twice_is_stored_once(tmp):
    store = a_store_with_a_run(tmp)
    done = command(tmp, "store", "import", str(one_finished_run(tmp)), "--store", str(store))
    assert done.returncode == 0 and "1 already there" in done.stdout, done.stderr
    assert len(stored_ids(store)) == 1


@case("runs")
def six_imports_at_once_store_six_runs(tmp):
    runs = []
    for i in range(6):
        assert tiny_run(tmp, tmp / f"r{i}").returncode == 0
        runs += run_dirs(tmp / f"r{i}")
    store = tmp / "six.sqlite"
    procs = [subprocess.Popen([sys.executable, "-m", "stallbench_lib", "store", "import", str(r), "--store", str(store)],
                              env=environment(tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for r in runs]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert len(stored_ids(store)) == 6


# --- 5. damaged or odd state ------------------------------------------------------------------------

def _truncated_store(tmp):
    store = a_store_with_a_run(tmp)
    data = store.read_bytes()
    store.write_bytes(data[:len(data) // 2])
    return store


def _garbage_store(tmp):
    store = tmp / "garbage.sqlite"
    store.write_bytes(os.urandom(8192))
    return store


@case("damaged")
def store_list_on_a_file_that_is_not_sqlite(tmp):
    one_line(command(tmp, "store", "list", "--store", str(_garbage_store(tmp))))


@case("damaged")
def store_list_on_a_truncated_store(tmp):
    one_line(command(tmp, "store", "list", "--store", str(_truncated_store(tmp))))


@case("damaged")
def history_on_a_truncated_store(tmp):
    one_line(command(tmp, "history", "--store", str(_truncated_store(tmp)), "--out", str(tmp / "h")))


@case("damaged")
def compare_ids_in_a_damaged_store(tmp):
    store = _garbage_store(tmp)
    one_line(command(tmp, "compare", "20260101T000000Z-a", "20260101T000000Z-b", "--store", str(store)))


@case("damaged")
def run_with_a_damaged_store_keeps_its_run_and_report(tmp):
    done = command(tmp, "run", "--no-build", "--filter", "^tiny/sum$", "--set", "n=1000", "--repetitions", "1",
                   "--store", str(_garbage_store(tmp)), "--out", str(tmp / "out"))
    no_traceback(done)
    (run,) = run_dirs(tmp / "out")
    assert meta(run)["complete"] is True and (run / "report" / "report.md").exists(), done.stderr
    assert "not stored" in done.stdout + done.stderr


def _deep_meta_run(tmp) -> tuple:
    run = one_finished_run(tmp)
    deep = tmp / "deep" / run.name
    shutil.copytree(run, deep)
    (deep / "meta.json").write_text('{"run_id": "x", "deep": ' + nested_json() + "}")
    return run, deep


@case("damaged")
def compare_with_a_deeply_nested_meta(tmp):
    run, deep = _deep_meta_run(tmp)
    one_line(command(tmp, "compare", str(run), str(deep), "--out", str(tmp / "c")), 2)


@case("damaged")
def report_of_a_deeply_nested_meta(tmp):
    _, deep = _deep_meta_run(tmp)
    one_line(command(tmp, "report", str(deep)))


@case("damaged")
def history_results_with_a_deeply_nested_meta(tmp):
    _deep_meta_run(tmp)
    done = command(tmp, "history", "--results", str(tmp / "deep"), "--out", str(tmp / "h"))
    no_traceback(done)


@case("damaged")
def history_results_with_a_deeply_nested_acceptance(tmp):
    one_finished_run(tmp)
    (tmp / "finished" / "accepted.json").write_text(nested_json())
    one_line(command(tmp, "history", "--results", str(tmp / "finished"), "--out", str(tmp / "h")))


@case("damaged")
def store_import_of_a_deeply_nested_meta(tmp):
    _deep_meta_run(tmp)
    done = command(tmp, "store", "import", str(tmp / "deep"), "--store", str(tmp / "s.sqlite"))
    no_traceback(done)


@case("damaged")
def regex_patterns_nested_deeply(tmp):
    (tmp / "deep.toml").write_text(nested_toml())
    one_line(command(tmp, "regex", "--no-build", "--patterns", str(tmp / "deep.toml"), "--out", str(tmp / "o"),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2)


@case("damaged")
def trace_browser_scenario_nested_deeply(tmp):
    (tmp / "deep.json").write_text('{"name": "d", "steps": ' + nested_json() + "}")
    one_line(command(tmp, "trace", "--no-build", "--browser", "chromium", str(tmp / "deep.json"),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2)


@case("damaged")
def trace_scenario_nested_deeply(tmp):
    (tmp / "deep.json").write_text('{"name": "d", "module": "cjs", "program": ' + nested_json() + "}")
    one_line(command(tmp, "trace", "--no-build", "--node", "none", str(tmp / "deep.json"),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2)


@case("damaged")
def scan_cache_nested_deeply(tmp):
    (tmp / "src").mkdir()
    (tmp / "src" / "a.js").write_text("const r = /^(a+)+$/;\n")
    (tmp / "cache.json").write_text(nested_json())
    done = command(tmp, "regex", "--no-build", "--scan", str(tmp / "src"), "--cache", str(tmp / "cache.json"),
                   "--no-report", "--out", str(tmp / "o"), env={"STALLBENCH_BUILD_DIR": str(BUILD)}, timeout=900)
    no_traceback(done)


def _under_a_file(tmp) -> str:
    (tmp / "plain-file").write_text("x")
    return str(tmp / "plain-file" / "sub")


@case("damaged")
def run_out_under_a_regular_file(tmp):
    one_line(tiny_run(tmp, _under_a_file(tmp)), 2)


@case("damaged")
def compare_out_under_a_regular_file(tmp):
    run = one_finished_run(tmp)
    one_line(command(tmp, "compare", str(run), str(run), "--out", _under_a_file(tmp)), 2)


@case("damaged")
def history_out_under_a_regular_file(tmp):
    one_finished_run(tmp)
    one_line(command(tmp, "history", "--results", str(tmp / "finished"), "--out", _under_a_file(tmp)), 2)


@case("damaged")
def json_out_under_a_regular_file(tmp):
    (tmp / "doc.json").write_text("[1]")
    one_line(command(tmp, "json", "--no-build", "--input", str(tmp / "doc.json"), "--out", _under_a_file(tmp),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2)


@case("damaged")
def regex_out_under_a_regular_file(tmp):
    one_line(command(tmp, "regex", "--no-build", "--pattern", "^(a+)+$", "--out", _under_a_file(tmp),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2)


@case("damaged")
def export_out_under_a_regular_file(tmp):
    one_line(command(tmp, "export", str(one_finished_run(tmp)), "--format", "bmf", "--out", _under_a_file(tmp)), 2)


@case("damaged")
def run_out_with_a_300_character_name(tmp):
    one_line(tiny_run(tmp, tmp / ("n" * 300)), 2)


@case("damaged")
def every_reader_of_a_run_whose_cells_all_failed(tmp):
    """A run of crashed cells only: its own report, then every command that reads a run back, renders
    or says what it has, with no traceback and nothing left behind."""
    done = command(tmp, "run", "--no-build", "--filter", "^tiny/sum$", "--set", "n=1000,2000", "--repetitions", "1",
                   "--out", str(tmp / "out"), env={"STALLBENCH_BUILD_DIR": str(crashing_build(tmp))})
    no_traceback(done)
    assert done.returncode == 1 and "0 ok, 2 failed" in done.stderr, done.stderr
    (run,) = run_dirs(tmp / "out")
    assert meta(run)["complete"] is True and (run / "report" / "report.md").exists()
    assert not (run / ".space-reserve").exists() and not list(run.rglob("*.tmp"))
    readers = [("report", str(run)), ("compare", str(run), str(run), "--out", str(tmp / "c")),
               ("export", "--format", "bmf", str(run), "--out", str(tmp / "e")),
               ("history", "--results", str(tmp / "out"), "--out", str(tmp / "h")),
               ("store", "import", str(run), "--store", str(tmp / "s.sqlite"))]
    for argv in readers:
        read = command(tmp, *argv)
        no_traceback(read)
        assert read.returncode == 0, (argv, read.stderr)
    assert stored_ids(tmp / "s.sqlite") == [run.name]


# --- 6. closed pipes ----------------------------------------------------------------------------------

def _piped(tmp, shell: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=600, env=environment(tmp),
                          cwd=tmp)


RUN3 = (f"{sys.executable} -m stallbench_lib run --no-build --no-report --filter '^tiny/sum$' --set n=1000,2000,3000 "
        "--repetitions 2 --out out")


@case("pipes")
def run_into_head_finishes_or_says_why(tmp):
    done = _piped(tmp, f"{RUN3} 2>&1 | head -1; echo \"status ${{PIPESTATUS[0]}}\" >&2")
    (run,) = run_dirs(tmp / "out")
    said = meta(run)
    status = int(done.stderr.split("status ")[-1])
    assert (said["complete"] is True and said.get("output_lost")) or (status != 0 and said.get("stopped")), \
        (status, said.get("complete"), said.get("output_lost"))


@case("pipes")
def run_with_stdout_closed_finishes(tmp):
    done = _piped(tmp, f"{RUN3} 2>err.txt | true; echo \"status ${{PIPESTATUS[0]}}\" >&2")
    (run,) = run_dirs(tmp / "out")
    assert meta(run)["complete"] is True and "Traceback" not in (tmp / "err.txt").read_text(), done.stderr


@case("pipes")
def list_into_head(tmp):
    done = _piped(tmp, f"STALLBENCH_BUILD_DIR={BUILD} {sys.executable} -m stallbench_lib list --no-build 2>&1 | head -1; "
                       "exit ${PIPESTATUS[0]}")
    assert done.returncode == 0 and "Traceback" not in done.stdout, done.stdout + done.stderr


# --- 7. leftovers and misreports ------------------------------------------------------------------------

@case("leftovers")
def no_space_reserve_in_a_finished_doctor_run(tmp):
    node = _node_or_skip()
    done = command(tmp, "doctor", "--no-build", "--no-report", "--app",
                   f"{node} {DATA / 'doctor' / 'does_neither.js'} {_port()}", "--duration", "3", "--out", str(tmp / "out"),
                   env={"STALLBENCH_BUILD_DIR": str(BUILD), "STALLBENCH_NODE": node})
    assert done.returncode == 0, done.stderr
    (run,) = run_dirs(tmp / "out")
    assert not (run / ".space-reserve").exists()


@case("leftovers")
def no_space_reserve_in_an_ab_run(tmp):
    for side in ("a", "b"):
        (tmp / side / "benches").mkdir(parents=True)
        (tmp / side / "benches" / "bench_tiny").symlink_to(BUILD / "tests" / "tiny_bench")
    done = command(tmp, "ab", str(tmp / "a"), str(tmp / "b"), "--set", "n=1000", "--max-rounds", "2", "--out",
                   str(tmp / "ab"), timeout=900)
    assert done.returncode in (0, 1, 4), done.stderr  # 4: two rounds cannot see a change (inconclusive)
    assert run_dirs(tmp / "ab") and not list((tmp / "ab").rglob(".space-reserve"))


@case("leftovers")
def no_space_reserve_after_a_sigkill(tmp):
    signalled_during(tmp, [*LONG_TINY, "--out", str(tmp / "out")], "--stallbench-records-fd", signal.SIGKILL)
    assert run_dirs(tmp / "out") and not list((tmp / "out").rglob(".space-reserve"))


@case("leftovers")
def nothing_left_in_a_run_however_it_ended(tmp):
    """Finished, every cell crashed, Ctrl-C, SIGTERM, SIGKILL: no reserve, no partial file, and a meta
    that says how it ended."""
    ends = {"finished": tiny_run(tmp, tmp / "finished"),
            "crashed": command(tmp, "run", "--no-build", "--no-report", "--filter", "^tiny/sum$", "--repetitions", "1",
                               "--out", str(tmp / "crashed"), env={"STALLBENCH_BUILD_DIR": str(crashing_build(tmp))})}
    assert ends["finished"].returncode == 0 and ends["crashed"].returncode == 1, [e.stderr for e in ends.values()]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        signalled_during(tmp, [*LONG_TINY, "--out", str(tmp / sig.name)], "--stallbench-records-fd", sig)
    for end in ("finished", "crashed", "SIGINT", "SIGTERM", "SIGKILL"):
        (run,) = run_dirs(tmp / end)
        left = [p.name for p in run.rglob("*") if p.name == ".space-reserve" or p.name.endswith(".tmp")]
        assert not left, (end, left)
        assert meta(run)["complete"] is (end in ("finished", "crashed")), (end, meta(run))
        if end in ("SIGINT", "SIGTERM"):
            assert meta(run)["interrupted"] == end


@case("leftovers")
def page_of_a_fifo_or_a_directory_says_which(tmp):
    os.mkfifo(tmp / "fifo.html")
    (tmp / "dir.html").mkdir()
    for given, what in (("fifo.html", "FIFO"), ("dir.html", "directory")):
        one_line(command(tmp, "page", "--no-build", "--no-report", str(tmp / given), "--out", str(tmp / "o"),
                         env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2, what)
    assert not (tmp / "o").exists()


def _doctor_pool(tmp, value: str) -> str:
    node = _node_or_skip()
    done = command(tmp, "doctor", "--no-build", "--no-report", "--app",
                   f"{node} {DATA / 'doctor' / 'does_neither.js'} {_port()}", "--duration", "2", "--out", str(tmp / "out"),
                   env={"STALLBENCH_BUILD_DIR": str(BUILD), "STALLBENCH_NODE": node, "UV_THREADPOOL_SIZE": value})
    assert done.returncode == 0, done.stderr
    return done.stdout


@case("leftovers")
def doctor_reads_uv_threadpool_size_minus_one_as_libuv_does(tmp):
    assert "UV_THREADPOOL_SIZE=1024" in _doctor_pool(tmp, "-1")


@case("leftovers")
def doctor_reads_arabic_indic_digits_as_libuv_does(tmp):
    assert "UV_THREADPOOL_SIZE=1," in _doctor_pool(tmp, "\u0661\u0662")


@case("leftovers")
def stallbench_node_naming_a_missing_file(tmp):
    one_line(command(tmp, "run", "--no-build", "--filter", "^tiny/sum$", "--out", str(tmp / "o"),
                     env={"STALLBENCH_NODE": str(tmp / "missing" / "node")}), 2, "STALLBENCH_NODE")


@case("leftovers")
def stallbench_node_naming_a_file_that_is_not_executable(tmp):
    (tmp / "node").write_text("not a program")
    one_line(command(tmp, "run", "--no-build", "--filter", "^tiny/sum$", "--out", str(tmp / "o"),
                     env={"STALLBENCH_NODE": str(tmp / "node")}), 2, "STALLBENCH_NODE")


@case("leftovers")
def json_input_of_a_fifo(tmp):
    os.mkfifo(tmp / "pipe.json")
    one_line(command(tmp, "json", "--no-build", "--input", str(tmp / "pipe.json"), "--out", str(tmp / "o"),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}), 2, "FIFO")


@case("leftovers")
def scan_of_a_file_the_parser_cannot_read(tmp):
    (tmp / "src").mkdir()
    (tmp / "src" / "broken.js").write_text("const r = /a+/; function (\n")
    one_line(command(tmp, "regex", "--no-build", "--scan", str(tmp / "src"), "--no-report", "--out", str(tmp / "o"),
                     env={"STALLBENCH_BUILD_DIR": str(BUILD)}, timeout=900), 2, "broken.js")


def _full_disk(tmp):
    mount = tmp / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    return mount


@case("leftovers")
def store_on_a_full_disk_is_a_disk_error(tmp):
    mount = _full_disk(tmp)
    try:
        subprocess.run(["dd", "if=/dev/zero", f"of={mount}/filler", "bs=64k"], capture_output=True)
        one_line(command(tmp, "store", "import", str(one_finished_run(tmp)), "--store", str(mount / "s.sqlite")), 3)
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@case("leftovers")
def a_full_disk_names_the_file(tmp):
    mount = _full_disk(tmp)
    try:
        subprocess.run(["dd", "if=/dev/zero", f"of={mount}/filler", "bs=64k"], capture_output=True)
        done = tiny_run(tmp, mount / "runs")
        one_line(done, 3, "ENOSPC")
        assert f"cannot write {mount}" in done.stderr, done.stderr
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.parametrize("check", CASES)
def test_hostile_state(tmp_path, check):
    check(tmp_path)


def test_the_table_covers_seven_classes_with_forty_cases():
    kinds = {c.id.split(":")[0] for c in CASES}
    assert len(CASES) >= 40 and kinds == {"injection", "signals", "detached", "runs", "damaged", "pipes", "leftovers"}
