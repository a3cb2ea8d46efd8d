"""Family `browser` and `trace --browser` in a real Chromium (skipped, saying why, when Chromium or
playwright-core cannot be had): the seeds' browser orderings; an inline long task gets no frame and
holds every click until it ends; scheduler.yield chunks let frames and clicks in between; every
strategy computes the inline answer; a page run has a time limit; the browser dies with its cell.
Bad page scenarios and a missing Chromium are one line, exit 2, before any browser starts."""
import json
import math
import os
import re
import subprocess
import time

import pytest

from conftest import BUILD, ROOT, stallbench, tree
from stallbench_lib import catalogue, children, node as nodejs, npm_sets, plan, profiles
from stallbench_lib.commands import run
from stallbench_lib.browser import scenario as scenarios, setup
from stallbench_lib.errors import UsageError

SCENARIOS = sorted((ROOT / "workloads" / "browser" / "scenarios").glob("*.json"))
BENCH = BUILD / "benches" / "bench_browser"
STRATEGIES = ["inline", "timeout", "message-channel", "idle-callback", "yield", "post-task", "worker"]


BROWSERS = {row["name"]: row for row in catalogue.describe(BENCH).tables["browsers"]} if BENCH.exists() else {}


def _why_no_browser(name: str) -> str:
    if name not in BROWSERS:
        return f"bench_browser is not built or declares no {name}"
    if BROWSERS[name]["missing"]:
        return BROWSERS[name]["missing"]
    if problem := npm_sets.install(["browser"]):
        return f"the npm set browser cannot be installed: {problem}"
    if nodejs.find()[0] is None:
        return "no Node to run the browser driver"
    return ""


WHY_NOT = _why_no_browser("chromium")
needs_browser = pytest.mark.skipif(bool(WHY_NOT), reason=f"browser tests skipped: {WHY_NOT}")
WHY_NO_FIREFOX = _why_no_browser("firefox")
needs_firefox = pytest.mark.skipif(bool(WHY_NO_FIREFOX), reason=f"Firefox tests skipped: {WHY_NO_FIREFOX}")


# -- page scenarios: bad input (no browser needed) ------------------------------------------------

BAD = [
    ("node's setImmediate", [{"op": "setImmediate", "log": "i"}],
     "$.program[0].op: setImmediate is Node's; a page has no such thing (a page scenario's ops: log,"),
    ("node's nextTick, nested", [{"op": "promise", "then": [{"op": "nextTick"}]}],
     "$.program[0].then[0].op: nextTick (process.nextTick) is Node's"),
    ("unknown priority", [{"op": "postTask", "priority": "urgent"}],
     "$.program[0].priority: must be one of user-blocking, user-visible, background"),
    ("delay out of range", [{"op": "setTimeout", "ms": 20000}], "$.program[0].ms: must be an integer 0-10000"),
    ("unknown field", [{"op": "yield", "label": "x"}], "$.program[0].label: yield takes log, then"),
    ("click without how", [{"op": "click"}], "$.program[0]: click needs how"),
]


@pytest.mark.parametrize("case, program, words", BAD, ids=[b[0] for b in BAD])
def test_bad_page_scenario_names_file_path_and_what_is_valid(tmp_path, case, program, words):
    scenario = tmp_path / "bad.json"
    scenario.write_text(json.dumps({"name": "x", "module": "page", "program": program}))
    with pytest.raises(UsageError) as refused:
        scenarios.load(scenario)
    assert str(refused.value).startswith(f"{scenario}: ") and words in str(refused.value)


def test_trace_browser_refuses_a_bad_scenario_in_one_line_before_any_browser(tmp_path):
    scenario = tmp_path / "bad.json"
    scenario.write_text(json.dumps({"name": "x", "module": "page", "program": BAD[0][1]}))
    before = tree(tmp_path)
    result = stallbench("trace", "--browser", str(SCENARIOS[0]), str(scenario), "--no-build",
                        env={"STALLBENCH_CHROMIUM": "none"})
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(scenario) in lines[0] and BAD[0][2] in lines[0], lines
    assert result.stdout == "" and tree(tmp_path) == before


def test_a_node_scenario_is_refused_by_trace_browser():
    node_scenario = ROOT / "workloads" / "loop" / "scenarios" / "003-sync-micro-macro.json"
    result = stallbench("trace", "--browser", str(node_scenario))
    assert result.returncode == 2
    assert '$.module: must be "page" for trace --browser (got "cjs"' in result.stderr


def test_without_any_browser_trace_and_run_say_so_in_one_line(tmp_path):
    env = {"STALLBENCH_CHROMIUM": "none", "STALLBENCH_FIREFOX": "none"}
    traced = stallbench("trace", "--browser", "--no-build", env=env)
    assert traced.returncode == 2 and "trace --browser: no Chromium (install Debian's chromium" in traced.stderr
    ran = stallbench("run", "--profile", "smoke", "--no-build", "--filter", "^browser/", "--out", str(tmp_path), env=env)
    assert ran.returncode == 2
    # page is named too: it cannot run without a browser either (in `run` it has no cells anyway)
    assert "stallbench: browser: skipped (report, parse, page): no Chromium" in ran.stderr and "no Firefox" in ran.stderr
    assert list(tmp_path.iterdir()) == []  # nothing to run: no run directory


@pytest.mark.skipif(not BENCH.exists(), reason="bench_browser is not built")
def test_a_browser_not_installed_is_one_notice_where_the_grid_asks_for_it(monkeypatch):
    monkeypatch.setenv("STALLBENCH_CHROMIUM", "/bin/true")  # "installed": the notice needs no browser to start
    monkeypatch.setenv("STALLBENCH_FIREFOX", "none")
    family = catalogue.describe(BENCH)
    planned = run.planned_benchmarks(family.benchmarks, plan.make_plan([family], profiles.PROFILES[profiles.DEFAULT], None, {}))
    default = setup.left_out([family], planned, "values", {})
    assert len(default) == 1
    assert default[0].startswith("notice: browser: firefox cells left out (report, parse): no Firefox (install")
    assert setup.left_out([family], planned, "smoke", {}) == []  # smoke's grid is Chromium alone
    assert setup.left_out([family], planned, "smoke", {"browser/parse.browser": ["firefox"]}) == [
        default[0].replace("(report, parse)", "(parse)")]
    monkeypatch.setenv("STALLBENCH_CHROMIUM", "none")  # neither: plan's skip line says it, not a notice
    neither = catalogue.describe(BENCH)
    assert setup.left_out([neither], neither.benchmarks, "values", {}) == []


@needs_browser
def test_run_says_in_one_line_that_a_missing_browsers_cells_are_left_out(tmp_path):
    ran = stallbench("run", "--profile", "smoke", "--no-build", "--no-report", "--filter", "^browser/report",
                     "--set", "browser=chromium,firefox", "--set", "rows=1000", "--repetitions", "1",
                     "--out", str(tmp_path), env={"STALLBENCH_FIREFOX": "none"}, timeout=600)
    assert ran.returncode == 0, ran.stderr[-2000:]
    notices = [line for line in ran.stderr.splitlines() if "firefox" in line.lower()]
    assert len(notices) == 1 and notices[0].startswith(
        "stallbench: notice: browser: firefox cells left out (report): no Firefox (install"), ran.stderr
    results = next(tmp_path.iterdir()) / "results.csv"
    assert "browser=chromium" in results.read_text() and "browser=firefox" not in results.read_text()


# -- the seeds' orderings in Chromium --------------------------------------------------------------

@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_every_shipped_page_scenario_runs_as_expected(browser):
    result = stallbench("trace", "--browser", browser, "--no-build", "--runs", "1", timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.match(rf"browser: {BROWSERS[browser]['label']} \d+\.", result.stdout)
    for path in SCENARIOS:
        assert f"── {json.loads(path.read_text())['name']} (page" in result.stdout
    assert f"{len(SCENARIOS)} page scenarios: {len(SCENARIOS)} as expected" in result.stdout
    seed_003 = result.stdout.split("── sync-micro-macro")[1].split("──")[0]
    assert re.findall(r"^\s+\d+  (\S+)$", seed_003, re.M) == ["1", "5", "3", "4", "2"]


# -- the family: shapes, answers -----------------------------------------------------------------

def _bench(*args: str, timeout_s: float = 900) -> subprocess.CompletedProcess:
    node, _ = nodejs.find()
    return children.run([str(BENCH), f"--stallbench-node={node.line}={node.path}", *args], text=True,
                        timeout_s=timeout_s, reserves_address_space=True)


def _counters(benchmark: dict, metric: str) -> list[float]:
    found = [(int(k.split("#")[1]), v) for k, v in benchmark.items() if k.startswith(metric + "#")]
    return [v for _, v in sorted(found)]


@pytest.fixture(scope="module")
def strategies(tmp_path_factory):
    """Every strategy of both benchmarks in one bench process (one browser): name -> benchmark JSON."""
    out = tmp_path_factory.mktemp("browser") / "out.json"
    result = _bench("--stallbench-grid=report.browser=chromium", "--stallbench-grid=parse.browser=chromium",
                    "--stallbench-grid=report.strategy=" + ",".join(STRATEGIES), "--stallbench-grid=report.chunk=0,250000",
                    "--stallbench-grid=report.rows=8000000", "--stallbench-grid=report.click_ms=25",
                    "--stallbench-grid=parse.strategy=" + ",".join(STRATEGIES), "--stallbench-grid=parse.chunk=0,5000",
                    "--stallbench-grid=parse.orders=20000", "--benchmark_repetitions=1", f"--benchmark_out={out}",
                    "--benchmark_out_format=json")
    assert result.returncode == 0, result.stderr[-2000:]
    runs = {}
    for b in json.loads(out.read_text())["benchmarks"]:
        assert not b.get("error_occurred"), f"{b['name']}: {b.get('error_message')}"
        parts = dict(part.split(":", 1) for part in b["name"].split("/")[1:] if ":" in part)
        runs[(b["name"].split("/")[0], parts["strategy"])] = b
    return runs


@needs_browser
def test_inline_long_task_gets_no_frame_and_holds_every_click_until_it_ends(strategies):
    inline = strategies[("report", "inline")]
    assert inline["frames"] == 0 and inline["longtasks"] >= 1
    start, end = inline["work_start_ms"], inline["work_end_ms"]
    during = [(at, delay) for at, delay in zip(_counters(inline, "click_at_ms"), _counters(inline, "click_delay_ms"))
              if start < at < end]
    assert during, "no click fell inside the long task (it is too short for the click rate)"
    assert all(at + delay >= end for at, delay in during)


@needs_browser
def test_yield_chunks_let_frames_and_clicks_in_between(strategies):
    chunked, inline = strategies[("report", "yield")], strategies[("report", "inline")]
    assert chunked["frames"] > 0 and chunked["chunks"] > 1
    end = chunked["work_end_ms"]
    answered = [at + delay for at, delay in zip(_counters(chunked, "click_at_ms"), _counters(chunked, "click_delay_ms"))
                if chunked["work_start_ms"] < at < end - chunked["chunk_max_ms"]]
    assert answered and all(t < end for t in answered)  # handled while the work was still going on
    # A click waits for the rest of the chunk it arrived in and at most one rendering step. All
    # measured in this run: a renderer held off the cores between chunks lengthens the click's wait
    # and the frame gap around it alike, and inline's wait is for the whole task, which load
    # lengthens as much as every chunk, so a busy machine does not invert these.
    # The per-click series is there whatever the driver did; input_delay_max_ms only when no click
    # was backlogged (a busy machine's browser process can stamp the clicks after the work).
    chunked_worst = max(_counters(chunked, "click_delay_ms"))
    assert ("input_delay_max_ms" in chunked) == (chunked["clicks_backlogged"] == 0), chunked
    assert chunked_worst < chunked["chunk_max_ms"] + chunked["frame_gap_max_ms"]
    # Inline's clicks wait for the whole task; a backlogged inline run stamped them after it, so its
    # own worst wait is not the page's, and the task's length is the wait a click at its start had.
    assert ("input_delay_max_ms" in inline) == (inline["clicks_backlogged"] == 0), inline
    inline_wait = inline.get("input_delay_max_ms", inline["work_end_ms"] - inline["work_start_ms"])
    assert chunked_worst < inline_wait


@needs_browser
def test_the_long_script_is_the_longest_loafs_top_attribution_in_chromium(strategies):
    """The inline report is one long script (long_task.js's timer callback, whose microtasks run the
    work): the longest LoAF names it, and it takes most of that frame."""
    inline = strategies[("report", "inline")]
    loafs = _counters(inline, "loaf_ms")
    longest = loafs.index(max(loafs))
    scripts = [row["name"] for row in catalogue.describe(BENCH).tables["page_scripts"]]
    assert scripts[int(_counters(inline, "loaf_script_source")[longest])] == "long_task.js"
    assert _counters(inline, "loaf_script_ms")[longest] > loafs[longest] / 2
    assert inline["loaf_blocking_max_ms"] > 0 and inline["tbt_ms"] > 0


@needs_browser
def test_inp_phases_add_up_to_each_interaction(strategies):
    for run in strategies.values():
        phases = zip(_counters(run, "click_delay_ms"), _counters(run, "click_processing_ms"),
                     _counters(run, "click_presentation_ms"), _counters(run, "click_interaction_ms"))
        assert all(abs(d + p + q - total) < 1e-6 for d, p, q, total in phases)
        # A repetition whose clicks came in a backlog has no INP (its clicks never sampled the work).
        assert ("inp_ms" in run) == (run["clicks_backlogged"] == 0)
        if "inp_ms" in run:
            assert abs(run["inp_input_delay_ms"] + run["inp_processing_ms"] + run["inp_presentation_ms"]
                       - run["inp_ms"]) < 1e-6


# Chromium coarsens performance.now() to 100 µs outside cross-origin isolation (Firefox runs at
# full precision here): a phase that spans the worker's clock and the page's may read that much low.
CLOCK_RESOLUTION_MS = 0.1
# The worker stamps timeOrigin + now(), about 1.8e12 ms: a double there is exact to 2^-12 ms, so a
# difference of two such stamps may also be that much off either way (-0.10005 was read, 2026-12-05).
EPOCH_STAMP_ROUNDING_MS = 2 * math.ulp(2e12)
WORKER_PHASES = ["worker_start_ms", "worker_compute_ms", "worker_answer_ms", "worker_settle_ms"]


@needs_browser
def test_a_workers_phases_add_up_to_its_job_and_only_a_worker_has_them(strategies):
    for (work, strategy), run in strategies.items():
        if strategy != "worker":
            assert not any(k.startswith("worker_") for k in run), (work, strategy)
            continue
        phases = [run[name] for name in WORKER_PHASES]
        assert all(p >= -CLOCK_RESOLUTION_MS - EPOCH_STAMP_ROUNDING_MS for p in phases), dict(zip(WORKER_PHASES, phases))
        assert abs(sum(phases) - run["total_ms"]) < 1e-6
        assert 0 <= run["worker_post_message_ms"] <= run["worker_start_ms"]


@needs_firefox
def test_a_strategy_firefox_lacks_is_rejected_there_and_entries_it_lacks_are_absent(tmp_path):
    """Firefox before 142 has no scheduler.yield: with the scheduler switched off by preference the
    yield cell is rejected with the reason, while inline runs, with no longtask or LoAF rows."""
    out = tmp_path / "out.json"
    node, _ = nodejs.find()
    result = children.run([str(BENCH), f"--stallbench-node={node.line}={node.path}", "--benchmark_filter=^report/",
                           "--stallbench-grid=report.browser=firefox", "--stallbench-grid=report.strategy=inline,yield",
                           "--stallbench-grid=report.chunk=0,250000", "--stallbench-grid=report.rows=1000000",
                           "--benchmark_repetitions=1", f"--benchmark_out={out}", "--benchmark_out_format=json"],
                          text=True, timeout_s=600, reserves_address_space=True,
                          env={**os.environ, "STALLBENCH_FIREFOX_PREFS": '{"dom.enable_web_task_scheduling": false}'})
    runs = {dict(p.split(":", 1) for p in b["name"].split("/")[1:] if ":" in p)["strategy"]: b
            for b in json.loads(out.read_text())["benchmarks"]}
    assert "scheduler.yield is not available" in runs["yield"].get("error_message", ""), result.stderr[-2000:]
    assert not runs["inline"].get("error_occurred"), runs["inline"].get("error_message")
    assert "tbt_ms" in runs["inline"]
    # clicks a busy machine's driver delivered after the work never sampled it: then no INP row
    assert ("inp_ms" in runs["inline"]) == (runs["inline"]["clicks_backlogged"] == 0), runs["inline"]
    assert not any(k.startswith(("longtask", "loaf")) for k in runs["inline"])


def test_the_parity_matrix_says_where_browsers_differ(capsys):
    from stallbench_lib.browser import trace as browser_trace
    loaded = [{"name": "race"}, {"name": "fixed"}]
    results = {"chromium": {"scenarios": [{"orders": [["timeout", "message"]]}, {"orders": [["1", "2"]]}]},
               "firefox": {"scenarios": [{"orders": [["message", "timeout"], ["timeout", "message"]]},
                                         {"orders": [["1", "2"]]}]}}
    browser_trace._print_matrix(loaded, results)
    out = capsys.readouterr().out
    assert "  race: differs" in out and "  fixed: same" in out
    assert "firefox   message, timeout (1×) | timeout, message (1×)" in out


@needs_browser
def test_every_strategy_computes_the_inline_answer(strategies):
    for work, answer in (("report", "revenue"), ("parse", "records")):
        values = {s: strategies[(work, s)][answer] for s in STRATEGIES}
        assert len(set(values.values())) == 1, values


# -- limits ---------------------------------------------------------------------------------------

@needs_browser
def test_a_page_run_that_overruns_its_limit_stops_the_session():
    d = setup.driving("test", BROWSERS["chromium"])
    request = {"limit_ms": 1000, "scenarios": [
        {"file": "slow", "runs": 1, "program": [{"op": "busy", "ms": 3000}]},
        {"file": "after", "runs": 1, "program": [{"op": "log", "text": "x"}]}]}
    out = children.run(setup.driver_argv(d, "trace.mjs"), input=json.dumps(request), text=True, timeout_s=300,
                       reserves_address_space=True)
    assert out.returncode == 0, out.stderr[-2000:]
    slow, after = json.loads(out.stdout.strip().splitlines()[-1])["scenarios"]
    assert slow["error"] == "timeout: the scenario did not finish within 1 s"
    assert after["error"].startswith("not run: an earlier scenario overran")


def _processes() -> list[tuple[int, int, str, str]]:
    """(pid, process group, name, command line) of every live process."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            command = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            found.append((int(pid), int(fields[2]), stat[stat.index("(") + 1:stat.rindex(")")], command))
    return found


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.2)
    return condition()


@needs_browser
def test_the_browser_dies_with_its_cell():
    node, _ = nodejs.find()
    proc = children.start([str(BENCH), f"--stallbench-node={node.line}={node.path}", "--benchmark_filter=^report/",
                           "--stallbench-grid=report.browser=chromium",
                           "--stallbench-grid=report.strategy=inline", "--stallbench-grid=report.chunk=0",
                           "--stallbench-grid=report.rows=1000000000", "--benchmark_repetitions=1"],
                          reserves_address_space=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    group = lambda: [p for p in _processes() if p[1] == proc.pid]  # noqa: E731
    try:
        assert _wait_for(lambda: any(name == "chromium" for _, _, name, _ in group()), 120), \
            "Chromium never started in the cell's process group"
        driver = next(pid for pid, _, _, command in group() if "long_task.mjs" in command)
    finally:
        children.kill(proc)  # what the orchestrator does to a cell that overran
    assert _wait_for(lambda: not group(), 10), group()
    # Chromium's crash handler lives outside the group; it goes with the browser (its database is
    # in the driver's profile, named after the driver's pid).
    profile = f"stallbench-chromium-{driver}-"
    assert _wait_for(lambda: not any(profile in command for *_, command in _processes()), 10)


def test_run_installs_the_npm_sets_of_the_families_it_selects(tmp_path, monkeypatch, capsys):
    """A fresh clone has no playwright-core: `run` must ask for the browser family's npm set before
    running (and, when the set cannot be had, skip the family with one line, not fail its cells)."""
    from stallbench_lib import cli

    asked = []
    monkeypatch.setattr(npm_sets, "install", lambda names: asked.append(list(names)) or "offline (test)")
    monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD))
    code = cli.main(["run", "--no-build", "--no-report", "--filter", "^(browser/report|pool/saturation)$",
                     "--set", "iters=20000", "--set", "pool=1", "--set", "runtime=stallbench", "--set", "client=uv",
                     "--repetitions", "1", "--node", "none", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert asked == [["browser"]]
    assert code == 0, err
    assert "browser: skipped (report): its npm packages (browser) could not be installed: offline (test)" in err



def test_a_grid_refused_installs_no_npm_set(tmp_path, monkeypatch, capsys):
    """Bad input is one line: the grid is checked before anything is installed for it."""
    from stallbench_lib import cli

    asked = []
    monkeypatch.setattr(npm_sets, "install", lambda names: asked.append(list(names)))
    monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD))
    code = cli.main(["run", "--no-build", "--filter", "^(browser/report|pool/saturation)$", "--set", "pool.pool=0",
                     "--node", "none", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and asked == [] and len(err) == 1 and "1-1024" in err[0], err
    assert not (tmp_path / "out").exists()

# -- the version recorded is the version that ran (a stand-in launcher, no browser needed) --------

LAUNCHER = """#!/bin/sh
# Debian's launcher complains about /dev/shm on stderr before Chromium prints its version.
echo "/usr/bin/chromium: 9: [: 25274929152: unexpected operator" >&2
# Chromium cannot start under an address-space limit (RLIMIT_AS): it prints nothing then.
[ "$(ulimit -v)" = unlimited ] || exit 0
{stdout}
"""


def _described_chromium(tmp_path, monkeypatch, stdout: str) -> str:
    """The version the orchestrator records, asked the way it asks (catalogue.describe)."""
    launcher = tmp_path / "chromium"
    launcher.write_text(LAUNCHER.format(stdout=stdout))
    launcher.chmod(0o755)
    monkeypatch.setenv("STALLBENCH_CHROMIUM", str(launcher))
    return catalogue.describe(BENCH).versions["chromium"]


def test_the_version_is_read_from_stdout_whatever_the_launcher_writes_to_stderr_first(tmp_path, monkeypatch):
    said = 'sleep 0.2; echo; echo "[WARNING] fontconfig: no cache 3.1"; echo "Chromium 156.0.8078.114 built on Debian"'
    assert _described_chromium(tmp_path, monkeypatch, said) == "156.0.8078.114"


def test_a_browser_that_prints_no_version_is_unknown_never_skipped(tmp_path, monkeypatch):
    version = _described_chromium(tmp_path, monkeypatch, "echo 'no version here 1.2'")
    assert version.startswith("unknown (") and "skipped" not in version
    assert _described_chromium(tmp_path, monkeypatch, "exit 0").startswith("unknown (")


def test_a_browser_not_installed_is_said_to_be_left_out():
    done = subprocess.run([str(BENCH), "--stallbench-describe"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "STALLBENCH_CHROMIUM": "none"})
    described = json.loads(done.stdout)
    assert described["versions"]["chromium"] == "not found (its cells are left out)"
    chromium = next(row for row in described["tables"]["browsers"]["rows"] if row["name"] == "chromium")
    assert chromium["missing"].startswith("no Chromium (install Debian's chromium")
