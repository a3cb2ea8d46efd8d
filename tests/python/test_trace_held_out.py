"""Held-out checks on every installed Node line, all from one `trace --node LINES --jobs 2` shared by
the tests below (one start-up-tail measurement per line, two lines at a time): the hand-written
held-out programs (tests/heldout/: each a real Node program, NAME.cjs or .mjs, beside its scenario
NAME.json with the order Node gave on each line), Node's own ordering tests (workloads/loop/scenarios/
node-test-*, with the timer cases of a list re-read after each callback) and programs of timers due
in one pass with clears between them (stallbench_trace timer-pass, what the timer_pass_fuzz target
runs on the model). Every one must agree on every line: they are deterministic, so a race verdict
would mean one side gave two orders, which the matrix shows and these tests refuse; except where the
model itself declares a race it gives no odds for (`throw_race`: a handled throw on a line whose
queues it leaves drain at one of two points from run to run), where Node's order must be one the
model takes."""
import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, stallbench_command
from stallbench_lib import children, contract, node as nodejs, parallel, paths

INSTALLED = [line for line in nodejs.pinned() if nodejs.installed_path(line)]
HELD_OUT = sorted((ROOT / "tests" / "heldout").glob("h*.json"))
SCENARIOS = ROOT / "workloads" / "loop" / "scenarios"
NODE_TESTS = sorted(p for p in SCENARIOS.glob("*.json")
                    if p.name.startswith(("node-test-", "loop-microtask-clears", "loop-microtask-empties")))
TIMER_PASS = 8

pytestmark = pytest.mark.skipif(not INSTALLED, reason="no pinned Node line installed (scripts/bootstrap --node all): "
                                                      "nothing to compare with")


def _name(path) -> str:
    return json.loads(path.read_text())["name"]


@pytest.fixture(scope="module")
def parity(tmp_path_factory):
    """The trace of every held-out set on every installed line: (its stdout, the parity matrix's rows by
    scenario name, the timer-pass programs' names)."""
    folder = tmp_path_factory.mktemp("timer-pass")
    written = subprocess.run([str(paths.build_dir() / "tools" / "stallbench_trace"), "timer-pass", "--seed", "40",
                              "--count", str(TIMER_PASS), "--out", str(folder)], capture_output=True, text=True, timeout=60)
    assert written.returncode == 0, written.stderr
    timer_pass = [Path(p) for p in written.stdout.split()]
    files = [*HELD_OUT, *NODE_TESTS, *timer_pass]
    result = stallbench_command("trace", "--no-build", "--node", ",".join(INSTALLED), "--jobs", "2", "--runs", "1",
                                *map(str, files), timeout=3000)
    assert result.returncode in (0, 1), result.stdout[-6000:] + result.stderr
    rows = {}
    if len(INSTALLED) > 1:
        matrix = result.stdout[result.stdout.index("\nparity:"):].split("\n")[3:]
        for row in matrix:
            cells = re.split(r"\s{2,}", row.strip())
            if len(cells) == len(INSTALLED) + 1:
                rows[cells[0]] = cells[1:]
    races = set()  # (scenario, line) where the model declares a race of a handled throw
    for line in INSTALLED:
        model = subprocess.run([str(paths.build_dir() / "tools" / "stallbench_trace"), "run", "--model-node", line,
                                "--runs", "1", *map(str, files)], capture_output=True, text=True, timeout=600)
        assert model.returncode == 0, model.stderr
        races |= {(s["name"], line) for s in contract.parse(model.stdout, "trace_run", "stallbench_trace")["scenarios"]
                  if s["throw_race"]}
    return result, rows, [_name(p) for p in timer_pass], races


def _single_line_verdicts(stdout: str) -> dict[str, list[str]]:
    """With one line there is no matrix: each scenario's block (`── NAME (...`) says `node: VERDICT`."""
    found = {}
    for block in stdout.split("\n── ")[1:]:
        verdict = re.search(r"^   node: (\w+)", block, re.M)
        text = verdict.group(1) if verdict else "none"
        found[block.split(" (", 1)[0]] = ["race no odds" if "the model gives no odds" in block else text]
    return found


def _agreeing(parity, names):
    """The scenarios of `names` that did not agree on every installed line, with their verdicts (the
    name is kept from the test's use: it returns the disagreeing ones)."""
    result, rows, _, races = parity
    if len(INSTALLED) == 1:
        rows = _single_line_verdicts(result.stdout)

    def agrees(name: str) -> bool:
        verdicts = rows.get(name) or []
        return len(verdicts) == len(INSTALLED) and all(
            v == "agree" or (v.startswith("race no odds") and (name, line) in races) for v, line in zip(verdicts, INSTALLED))
    return {name: rows.get(name) for name in names if not agrees(name)}


def test_held_out_programs_agree_on_every_installed_line(parity):
    assert len(HELD_OUT) >= 30
    disagreeing = _agreeing(parity, [_name(p) for p in HELD_OUT])
    assert not disagreeing, disagreeing


def test_nodes_own_ordering_tests_agree_on_every_installed_line(parity):
    """Node's own ordering tests (test/parallel, cited in each scenario) and the timer cases of a list
    re-read after each callback: the order each asserts, on the model of each line and under that line."""
    assert len([p for p in NODE_TESTS if p.name.startswith("node-test-")]) >= 15
    disagreeing = _agreeing(parity, [_name(p) for p in NODE_TESTS])
    assert not disagreeing, disagreeing


def test_timer_pass_programs_agree_on_every_installed_line(parity):
    disagreeing = _agreeing(parity, parity[2])
    assert len(parity[2]) == TIMER_PASS and not disagreeing, disagreeing


def test_the_shared_trace_agrees_as_a_whole(parity):
    result, _, _, _ = parity
    total = len(HELD_OUT) + len(NODE_TESTS) + TIMER_PASS
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr
    assert "DISAGREE" not in result.stdout and "undecided" not in result.stdout
    assert f"{total} scenarios: {total} as expected and agreeing with node" in result.stdout


def test_each_held_out_program_prints_the_order_its_scenario_expects():
    """The scenario says what the hand-written program does: each program, run as written under each
    installed line, prints one of the orders its scenario expects there (three runs each when the
    orders were first taken; one here)."""
    programs = sorted(p for p in (ROOT / "tests" / "heldout").glob("h*.*js"))
    assert len(programs) == len(HELD_OUT)
    nodes = {node.line: node for node in nodejs.resolve(INSTALLED)}

    def printed(case):
        # The order is the last line printed, also by a program an uncaught exception ends (exit 1).
        program, line = case
        out = children.run([nodes[line].path, str(program)], text=True, timeout_s=60)
        order = json.loads(out.stdout.strip().split("\n")[-1]) if out.stdout.strip() else out.stderr[-300:]
        scenario = json.loads(program.with_suffix(".json").read_text())
        expected = scenario.get("expectByLine", {}).get(line, scenario["expect"])
        return None if order in expected else (program.name, line, order)

    wrong = [case for case in parallel.each(printed, [(p, line) for p in programs for line in INSTALLED], workers=2) if case]
    assert not wrong, wrong
