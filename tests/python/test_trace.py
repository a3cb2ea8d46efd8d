"""`stallbench trace`: every shipped scenario runs to the order it expects; races print their
distinct orders with counts; bad scenarios get one line naming the file and the JSON path (exit
2, nothing written); --node compares with Node when it is there and says so in one line when not."""
import json
import re

import pytest

from conftest import ROOT, stallbench, tree
from stallbench_lib import node as nodejs

SCENARIOS = sorted((ROOT / "workloads" / "loop" / "scenarios").glob("*.json"))
NODE, _ = nodejs.find()


def test_every_shipped_scenario_runs_as_expected():
    result = stallbench("trace", "--no-build")
    assert result.returncode == 0, result.stdout + result.stderr
    names = [json.loads(p.read_text())["name"] for p in SCENARIOS]
    for name in names:
        assert f"── {name} (" in result.stdout
    assert result.stdout.count("order: as expected") == len(names)
    assert "timers run" in result.stdout.splitlines()[0]  # which timer phase applied
    assert f"{len(names)} scenarios: {len(names)} as expected" in result.stdout


def test_a_race_prints_each_distinct_order_with_its_count():
    race = ROOT / "workloads" / "loop" / "scenarios" / "000-main-timeout-vs-immediate.json"
    result = stallbench("trace", "--no-build", "--runs", "30", str(race))
    assert result.returncode == 0, result.stderr
    counts = re.findall(r"^\s+(\d+)×  (.+)$", result.stdout, re.M)
    if counts:  # more than one order showed up
        assert sum(int(c) for c, _ in counts) == 30
        assert {o for _, o in counts} <= {"immediate → timeout", "timeout → immediate"}
    else:
        assert "every run of 30 gave the same order" in result.stdout


BAD = [
    ("not json", "{\"name\": \"x\",", "not valid JSON"),
    ("unknown op", '{"name": "x", "module": "cjs", "program": [{"op": "log", "text": "a"}, {"op": "nextTik"}]}',
     "$.program[1].op: unknown op 'nextTik' (valid: log, nextTick"),
    ("negative delay", '{"name": "x", "module": "cjs", "program": [{"op": "promise", "then": [{"op": "setTimeout", "ms": -1}]}]}',
     "$.program[0].then[0].ms: must be a number of milliseconds from 0 to 10000 (got -1)"),
    ("text delay", '{"name": "x", "module": "cjs", "program": [{"op": "setTimeout", "ms": "ten"}]}',
     "$.program[0].ms: must be a number of milliseconds"),
    ("missing file", '{"name": "x", "module": "cjs", "program": [{"op": "readFile", "path": "gone.txt"}]}',
     "$.program[0].path: no such file"),
]


@pytest.mark.parametrize("case, text, words", BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_is_one_line_naming_file_and_path(tmp_path, case, text, words):
    scenario = tmp_path / "bad.json"
    scenario.write_text(text)
    good = SCENARIOS[0]
    before = tree(tmp_path)
    result = stallbench("trace", "--no-build", str(good), str(scenario))  # checked before anything runs
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(scenario) in lines[0] and words in lines[0], lines[0]
    assert result.stdout == ""
    assert tree(tmp_path) == before


@pytest.mark.parametrize("args, words", [
    (["--runs", "0"], "--runs 0 is out of range: valid values are 1-1000"),
    (["--runs", "x"], "invalid int value"),
    (["/no/such/scenario.json"], "/no/such/scenario.json: no such file"),
])
def test_bad_arguments(args, words):
    result = stallbench("trace", "--no-build", *args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr


def test_without_node_a_one_line_note():
    result = stallbench("trace", "--no-build", "--node", str(SCENARIOS[0]), env={"STALLBENCH_NODE": "none"})
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert notes == ["note: node disabled (STALLBENCH_NODE is empty or none); showing stallbench's orders only"]
    assert "node: agree" not in result.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed: the comparison cannot run")
def test_node_agrees_on_every_shipped_scenario():
    result = stallbench("trace", "--no-build", "--node")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "DISAGREE" not in result.stdout and "node: failed" not in result.stdout
    assert result.stdout.count("node: agree") == len(SCENARIOS)
    assert f"node:    {NODE.version} on libuv {NODE.libuv}: timers run" in result.stdout


def test_a_wrong_expectation_fails_the_trace(tmp_path):
    scenario = tmp_path / "wrong.json"
    scenario.write_text('{"name": "wrong", "module": "cjs", "program": [{"op": "promise", "log": "p"}, '
                        '{"op": "nextTick", "log": "t"}], "expect": [["p", "t"]]}')
    result = stallbench("trace", "--no-build", str(scenario))
    assert result.returncode == 1
    assert "order: NOT as expected; expected p → t" in result.stdout


def test_agreement_rules():
    from stallbench_lib.commands.trace import _agreement

    def scenario(orders, expect):
        return {"orders": [{"order": o, "count": 1} for o in orders], "expect": expect}

    same = [{"order": ["a", "b"], "count": 3}]
    assert _agreement(scenario([["a", "b"]], []), same)[0]
    assert not _agreement(scenario([["b", "a"]], []), same)[0]
    race = [["a", "b"], ["b", "a"]]
    ok, text = _agreement(scenario([["b", "a"]], race), same)
    assert ok and "race" in text
    assert not _agreement(scenario([["c"]], race), same)[0]  # an order outside the allowed ones
