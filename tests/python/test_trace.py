"""`stallbench trace`: every shipped scenario runs to the order it expects; races print their
distinct orders with counts; bad scenarios get one line naming the file and the JSON path (exit
2, nothing written); --node LINES compares with those Node lines (a parity matrix for several)
and says so in one line when there is none; the model follows the line it models. The start-up
tail belongs to the model of each line, whatever the scenario declares (tests/python/
test_trace_startup.py); random programs agree with every installed line (test_trace_random.py)."""
import json
import os
import re
import subprocess

import pytest

from conftest import ROOT, stallbench, stallbench_command, tree
from stallbench_lib import node as nodejs

SCENARIOS = sorted((ROOT / "workloads" / "loop" / "scenarios").glob("*.json"))
NEWEST = list(nodejs.pinned())[-1]
INSTALLED = [line for line in nodejs.pinned() if nodejs.installed_path(line)]


def needs_lines(*lines):
    return pytest.mark.skipif(not set(lines) <= set(INSTALLED), reason=f"Node {', '.join(lines)} not installed "
                              "(scripts/bootstrap --node ...): the comparison cannot run")


def test_every_shipped_scenario_runs_as_expected():
    result = stallbench("trace", "--no-build")
    assert result.returncode == 0, result.stdout + result.stderr
    names = [json.loads(p.read_text())["name"] for p in SCENARIOS]
    for name in names:
        assert f"── {name} (" in result.stdout
    assert result.stdout.count("order: as expected") == len(names)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"model:   Node {NEWEST} (libuv ") and "timers run" in first  # which semantics applied
    assert f"{len(names)} scenarios: {len(names)} as expected" in result.stdout


def test_a_race_prints_each_distinct_order_with_its_count():
    race = ROOT / "workloads" / "loop" / "scenarios" / "000-main-timeout-vs-immediate.json"
    result = stallbench("trace", "--no-build", "--runs", "30", str(race))
    assert result.returncode == 0, result.stderr
    counts = re.findall(r"^\s+(\d+)×  \d+% \(95% interval \d+-\d+%\)  (.+)$", result.stdout, re.M)
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
    ("intervals in intervals", '{"name": "x", "module": "cjs", "program": [{"op": "setInterval", "ms": 0, "count": 500, '
     '"then": [{"op": "setInterval", "ms": 0, "count": 500}]}]}', "$.program[0]: one run would make over 100000 callbacks"),
]


@pytest.mark.parametrize("case, text, words", BAD + [("not utf-8", b'{"name": "caf\xe9", "module": "cjs", "program": []}',
                                                     "not valid JSON (UTF-8)")], ids=[b[0] for b in BAD] + ["not utf-8"])
def test_bad_scenario_is_one_line_naming_file_and_path(tmp_path, case, text, words):
    scenario = tmp_path / "bad.json"
    scenario.write_bytes(text if isinstance(text, bytes) else text.encode())
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
    (["--runs", "x"], "is not an integer"),
    (["/no/such/scenario.json"], "/no/such/scenario.json: no such file"),
    (["--model-node", "19"], f"--model-node 19: not a modelled Node line (valid: {', '.join(nodejs.pinned())})"),
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


@needs_lines(NEWEST)
def test_node_agrees_on_every_shipped_scenario():
    result = stallbench("trace", "--no-build", "--node", NEWEST, "--runs", "1", timeout=1200)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "DISAGREE" not in result.stdout and "node: failed" not in result.stdout
    assert result.stdout.count("node: agree") == len(SCENARIOS)
    node = nodejs.resolve([NEWEST])[0]
    assert f"node:    {node.version} on libuv {node.libuv}: timers run" in result.stdout
    assert f"runs, Node {node.version.lstrip('v')}, measured now" in result.stdout  # its start-up tail, for the race


def _scenario(tmp_path, program, module="cjs", name="case", **fields):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"name": name, "module": module, "program": program, **fields}), encoding="utf-8")
    return path


@needs_lines("24", NEWEST)
def test_several_lines_print_a_parity_matrix(tmp_path):
    # A label with line separators JSON.stringify leaves raw (U+2028, U+2029, U+0085) survives Node.
    label = "t\u2028\u2029\x85"
    scenario = _scenario(tmp_path, [{"op": "promise", "log": "p"}, {"op": "nextTick", "log": label}],
                         expect=[[label, "p"]])
    result = stallbench("trace", "--no-build", "--node", f"24,{NEWEST}", str(scenario))
    assert result.returncode == 0, result.stdout + result.stderr
    matrix = result.stdout[result.stdout.index("\nparity:"):].split("\n")
    assert matrix[2].split() == ["24", NEWEST]
    assert matrix[3].split() == ["case", "agree", "agree"]
    assert f"{NEWEST}: 1 of 1 deterministic scenarios agree (100%)" in result.stdout


@needs_lines("18")
def test_the_model_follows_the_line_it_models():
    # libuv 1.44 (Node 18) exits past an unref'd timer that 1.45+ still runs after the check phase.
    unref = str(ROOT / "workloads" / "loop" / "scenarios" / "loop-unref-timer-after-check.json")
    same = stallbench("trace", "--no-build", "--node", "18", unref)
    assert same.returncode == 0 and "node: agree" in same.stdout, same.stdout + same.stderr
    other = stallbench("trace", "--no-build", "--node", "18", "--model-node", NEWEST, unref)
    assert other.returncode == 1 and "node: DISAGREE" in other.stdout, other.stdout + other.stderr


def test_a_wrong_expectation_fails_the_trace(tmp_path):
    scenario = tmp_path / "wrong.json"
    scenario.write_text('{"name": "wrong", "module": "cjs", "program": [{"op": "promise", "log": "p"}, '
                        '{"op": "nextTick", "log": "t"}], "expect": [["p", "t"]]}')
    result = stallbench("trace", "--no-build", str(scenario))
    assert result.returncode == 1
    assert "order: NOT as expected; expected p → t" in result.stdout


def test_agreement_rules():
    from stallbench_lib.trace_parity import verdict

    def orders(*lists):
        return [{"order": o, "count": 1} for o in lists]

    same = [{"order": ["a", "b"], "count": 3}]
    assert verdict([], orders(["a", "b"]), same) == "agree"
    assert verdict([], orders(["b", "a"]), same) == "DISAGREE"
    race = [["a", "b"], ["b", "a"]]
    assert verdict(race, orders(["b", "a"]), same) == "undecided"  # each side gave one the other never did
    assert verdict(race, orders(["b", "a"], ["a", "b"]), same + orders(["b", "a"])) == "race"
    assert verdict(race, orders(["c"]), same) == "DISAGREE"  # an order outside the allowed ones


def test_an_unannotated_race_is_judged_by_its_odds():
    from stallbench_lib.trace_parity import verdict, wilson

    def counts(ab, ba):
        return [o for o in [{"order": ["a", "b"], "count": ab}, {"order": ["b", "a"], "count": ba}] if o["count"]]

    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert verdict([], counts(45, 5), counts(42, 8)) == "race"        # the same odds within their intervals
    assert verdict([], counts(50, 0), counts(0, 50)) == "DISAGREE"    # each certain, of the other order
    assert verdict([], counts(50, 0), counts(25, 25)) == "DISAGREE"   # a race on one side only, by a wide margin
    # One run each of a race from the main module: different orders are not yet a disagreement,
    # nor an agreement: more runs decide.
    assert verdict([], counts(1, 0), counts(0, 1), startup_race=True) == "undecided"
    assert verdict([], counts(3, 1), counts(2, 2), startup_race=True) == "race"
    assert verdict([], counts(1, 0), counts(0, 1)) == "DISAGREE"
    # A declared race is judged by its odds too, not only by the orders being allowed.
    assert verdict([["a", "b"], ["b", "a"]], counts(50, 0), counts(0, 50)) == "DISAGREE"


def test_start_up_tail_from_probe_runs():
    from stallbench_lib.startup_tail import tails_from_probes

    probes = [{"gap_ms": 0.5, "after_read": 1, "exact": True}, {"gap_ms": 0.3, "after_read": 0, "exact": True},
              {"gap_ms": 0.4, "after_read": 0, "exact": True}, {"gap_ms": 0.6, "after_read": 0, "exact": True},
              {"gap_ms": 9.0, "after_read": 5, "exact": True}, {"gap_ms": 9.0, "after_read": 0, "exact": False}]
    # A tick fell between the clock read and the call's return in 1 of the 4 usable runs: 0.25 ms.
    assert tails_from_probes(probes) == pytest.approx([0.75, 0.55, 0.65, 0.85])
    assert tails_from_probes([]) == []


def test_more_runs_than_the_time_limit_allows(tmp_path):
    scenario = _scenario(tmp_path, [{"op": "setTimeout", "ms": 1000, "log": "a"}])
    result = stallbench("trace", "--no-build", "--runs", "1000", str(scenario))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.strip() == (f"stallbench: {scenario}: the runs asked for take at least 1000 s of timers and busy "
                                      "work together, over the limit of 600 s: ask for fewer runs")


@pytest.mark.parametrize("op", ["readFile", "open"])
def test_a_run_waiting_on_a_fifo_ends_at_the_limit(tmp_path, op):
    """A FIFO nobody writes blocks the pool thread's open(2) forever, in Node as in the model: the run
    ends at the trace's limit as a timeout, one line naming the file, the op and what is valid, and the
    whole command ends (it used to wait for the orchestrator's 900 s)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    scenario = _scenario(tmp_path, [{"op": "log", "text": "start"}, {"op": op, "path": "fifo", "log": "read"}])
    result = stallbench_command("trace", "--no-build", str(scenario), timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.strip().splitlines() == [
        f"stallbench: trace: {scenario}: timeout: run 1 of 1 did not end within the trace's limit of 30 s: "
        f"$.program[1]: {op} of {fifo}, a FIFO, waits on it as Node would (valid: a regular file)"]


def _immediate_chain(count, busy_ms):
    """`count` setImmediate callbacks, each queuing the next after `busy_ms` of work."""
    link = None
    for i in range(count, 0, -1):
        link = {"op": "setImmediate", "log": f"immediate {i}", "then": [{"op": "busy", "ms": busy_ms}] + ([link] if link else [])}
    return link


@needs_lines("22")
def test_the_readfile_chain_on_the_model_of_22_matches_node_22(tmp_path):
    """fs.readFile of a small file, 30 ms of work, then six immediates of 30 ms each: on Node 22 the
    read's four pool requests (open, fstat, read, close) each take one loop turn, so its callback comes
    after the third immediate; the model of 22 makes the same requests, so that is the order most of
    its runs give, as most of Node's do. A request the machine holds up for a turn gives a rarer
    order, on either side and not always on both (64 runs a side at most): 4 such runs of 64 on the
    model and 3 on Node 22 on a brand-new machine running the suite, orders the other side did not
    all give, left trace's race verdict undecided. So the test reads the most frequent order of each
    side, which a held-up request cannot make; trace's verdicts on races have tests of their own
    (below)."""
    small = tmp_path / "small.txt"
    small.write_text("hello\n")
    scenario = _scenario(tmp_path, [{"op": "readFile", "path": "small.txt", "log": "read"}, {"op": "busy", "ms": 30},
                                    _immediate_chain(6, 30)], name="readfile-chain")
    result = stallbench("trace", "--no-build", "--node", "22", "--runs", "6", str(scenario))
    assert result.returncode in (0, 1) and "node: disagree" not in result.stdout, result.stdout + result.stderr
    if "node: agree" in result.stdout:
        return
    expected = "immediate 1 → immediate 2 → immediate 3 → read → immediate 4 → immediate 5 → immediate 6"
    sides = most_frequent_orders(result.stdout)
    assert set(sides) == {"model of Node 22", "node v22"}, result.stdout
    for side, (order, count, runs) in sides.items():
        assert order == expected and 2 * count > runs, (side, result.stdout)


def most_frequent_orders(printed: str) -> dict[str, tuple[str, int, int]]:
    """Each side's most frequent order in trace's listing (most frequent first): side (`model of
    Node 22`, `node v22`) -> (the order, its runs, all the side's runs)."""
    found, lines = {}, printed.splitlines()
    for i, line in enumerate(lines[:-1]):
        head = re.match(r"\s+(model of Node \d+|node v\d+)[.\d]*: \d+ distinct orders? in (\d+) runs?$", line)
        first = re.match(r"\s+(\d+)×.*?  (\S[^(]*)$", lines[i + 1])
        if head and first:
            found[head.group(1)] = (first.group(2).strip(), int(first.group(1)), int(head.group(2)))
    return found


def test_most_frequent_orders_reads_each_sides_first_listed_order():
    printed = """   model of Node 22: 2 distinct orders in 64 runs
         60×  94% (95% interval 85-98%)  a → read → b
          4×   6% (95% interval 2-15%)  a → b → read
   node v22.23.5: 1 distinct order in 64 runs
         64×  100% (95% interval 94-100%)  a → read → b"""
    assert most_frequent_orders(printed) == {"model of Node 22": ("a → read → b", 60, 64),
                                             "node v22": ("a → read → b", 64, 64)}


def _more_giving(made: list, model_order, node_order):
    """A `more(n)` for trace_parity.decide whose n more runs give each side one order; n is noted in `made`."""
    def more(n):
        made.append(n)
        return [{"order": model_order, "count": n}], [{"order": node_order, "count": n}]
    return more


def test_one_run_a_side_that_disagrees_gets_more_runs_before_it_is_called_a_disagreement():
    from stallbench_lib.trace_parity import DECIDE_FIRST_RUNS, decide, unsettled, verdict

    made = []
    one_a, one_b = [{"order": ["a"], "count": 1}], [{"order": ["b"], "count": 1}]
    assert verdict([], one_a, one_b) == "DISAGREE" and unsettled([], one_a, one_b)
    # Node's one run was held up (a fresh brand-new machine's Release tests, Node 18, a random
    # program): in its later runs it gives the model's order, so the program is no lasting difference.
    model, node = decide([], one_a, one_b, False, _more_giving(made, ["a"], ["a"]))
    assert verdict([], model, node) != "DISAGREE"
    # A difference that lasts: each side certain of its own order in DECIDE_FIRST_RUNS more runs.
    made.clear()
    model, node = decide([], one_a, one_b, False, _more_giving(made, ["a"], ["b"]))
    assert verdict([], model, node) == "DISAGREE" and made == [DECIDE_FIRST_RUNS]
    assert not unsettled([], model, node)
    # Agreeing sides need no more runs.
    assert not unsettled([], one_a, one_a)


def test_more_runs_decide_a_race_and_a_lasting_difference_disagrees():
    from stallbench_lib.trace_parity import DECIDE_BUDGET_RUNS, decide, verdict

    made = []
    # One run each, different orders: undecided; more runs on both sides, each side still certain of
    # its own order: a disagreement, found within the budget.
    model, node = decide([], [{"order": ["a"], "count": 1}], [{"order": ["b"], "count": 1}], True, _more_giving(made, ["a"], ["b"]))
    assert verdict([], model, node, True) == "DISAGREE"
    assert made and sum(made) + 1 <= DECIDE_BUDGET_RUNS
    # A rare order on one side only, to the end of the budget: undecided, never "agree".
    made.clear()
    model, node = decide([], [{"order": ["a"], "count": 9}], [{"order": ["a"], "count": 8}, {"order": ["b"], "count": 1}],
                         True, _more_giving(made, ["a"], ["a"]))
    assert verdict([], model, node, True) == "undecided"
    assert sum(o["count"] for o in node) == DECIDE_BUDGET_RUNS


def test_a_run_that_fails_is_one_line_and_the_others_still_run(tmp_path):
    """A run that fails (here a readFile of a folder, which calls back with EISDIR where the scenario
    expects success) is that scenario's one line naming it and the op; the scenario after it runs."""
    (tmp_path / "folder").mkdir()
    failing = _scenario(tmp_path, [{"op": "readFile", "path": "folder", "log": "read"}], name="reads-a-folder")
    fine = _scenario(tmp_path, [{"op": "promise", "log": "p"}, {"op": "nextTick", "log": "t"}], name="fine",
                     expect=[["t", "p"]])
    result = stallbench("trace", "--no-build", str(failing), str(fine))
    assert result.returncode == 1, result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if "model: failed:" in line]
    assert failed == ["   model: failed: reads-a-folder: in the main module: $.program[0]: readFile: EISDIR"], result.stdout
    assert "── fine (" in result.stdout and "order: as expected" in result.stdout
    assert "2 scenarios: 1 as expected, 1 NOT" in result.stdout


def test_a_race_without_the_models_odds_is_judged_by_its_orders():
    """Where the model gives the orders a race can take but not their odds (a handled throw on a line
    whose queues it leaves drain at one of two points from run to run), Node agrees by giving only
    orders the model takes, whatever its shares; an order the model never takes is not agreement."""
    from stallbench_lib.trace_parity import verdict

    both = [{"order": ["a", "b"], "count": 5}, {"order": ["b", "a"], "count": 5}]
    assert verdict([], both, [{"order": ["b", "a"], "count": 9}], odds_modelled=False) == "race"
    assert verdict([], both, [{"order": ["a", "b"], "count": 1}, {"order": ["b", "a"], "count": 30}],
                   odds_modelled=False) == "race"
    assert verdict([], both, [{"order": ["c"], "count": 1}], odds_modelled=False) == "undecided"
    assert verdict([["a", "b"]], both, [{"order": ["b", "a"], "count": 1}], odds_modelled=False) == "race"
    assert verdict([["a", "b"], ["c"]], both, [{"order": ["c"], "count": 1}], odds_modelled=False) == "DISAGREE"
    # With the model's odds, the same shares are a disagreement.
    assert verdict([], [{"order": ["a", "b"], "count": 50}, {"order": ["b", "a"], "count": 50}],
                   [{"order": ["b", "a"], "count": 60}]) == "DISAGREE"


def test_a_throw_in_a_timer_on_a_line_where_its_queues_race_gives_both_orders_without_odds(tmp_path):
    """A tick of a timer's callback throws, with an 'uncaughtException' listener: the model of a line
    where what it leaves drains at one of two points from run to run takes both (two orders, no
    odds); every other line gives one order, with its odds."""
    from stallbench_lib import contract, paths
    tool = str(paths.build_dir() / "tools" / "stallbench_trace")
    scenario = _scenario(tmp_path, [
        {"op": "uncaughtException", "log": "uncaught"},
        {"op": "setTimeout", "ms": 1, "log": "timer", "then": [
            {"op": "nextTick", "log": "tick", "then": [{"op": "throw", "text": "boom"}]},
            {"op": "queueMicrotask", "log": "microtask"},
            {"op": "setImmediate", "log": "immediate"}]}], name="throw-in-a-timer")
    lines = contract.parse(subprocess.run([tool, "startup-race", str(scenario)], capture_output=True, text=True,
                                          check=True).stdout, "trace_startup_race", "stallbench_trace")["lines"]
    raced = []
    for line in lines:
        result = contract.parse(subprocess.run([tool, "run", "--model-node", line, "--runs", "4", str(scenario)],
                                               capture_output=True, text=True, check=True).stdout,
                                "trace_run", "stallbench_trace")["scenarios"][0]
        orders = {tuple(o["order"]) for o in result["orders"]}
        if result["throw_race"]:
            raced.append(line)
            assert not result["odds_modelled"] and len(orders) == 2, (line, orders)
        else:
            assert result["odds_modelled"] and len(orders) == 1, (line, orders)
    assert raced, "no modelled line races here: Node 26 did (docs/starvation.md)"
