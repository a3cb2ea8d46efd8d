"""Held-out checks: random programs from the generator (workloads/loop/random_program.h), with a fixed
series, run on the model of each installed Node line and under that line; every one must agree, so a
new disagreement is found here and not by a user. The nightly profile runs more of them
(starvation/random_parity). The generator's own rules (deterministic documents, valid scenarios, one
order per program on the model) are tests/cpp/random_program_test.cc's."""
import json
import re

import pytest

from conftest import stallbench_command
from stallbench_lib import node as nodejs

SEED = 24
PROGRAMS = 24  # about a minute on 2 cores for the five pinned lines
INSTALLED = [line for line in nodejs.pinned() if nodejs.installed_path(line)]


@pytest.mark.skipif(not INSTALLED, reason="no pinned Node line installed (scripts/bootstrap --node all): nothing to compare with")
def test_random_programs_agree_with_every_installed_line():
    result = stallbench_command("trace", "--no-build", "--random", str(PROGRAMS), "--seed", str(SEED),
                                "--node", ",".join(INSTALLED), timeout=1200)
    assert f"random programs: {PROGRAMS} of series {SEED} from index 0" in result.stdout
    # Every program agrees on every line. On a machine busy enough that a pool request outlasts the
    # generator's 100 ms slot, Node itself can give a second order in some runs: the comparison then
    # calls the program a race, which agrees only if the model's odds match Node's, or, when Node gave
    # the held-up order in 1 run of 64 and the model never, undecided (the trace exits 1 and says so).
    # So a program may move from the deterministic count to the races, and a race may stay undecided;
    # nothing may disagree.
    assert "DISAGREE" not in result.stdout, result.stdout[-6000:]
    total = re.search(r"^\d+ scenarios: \d+ as expected and agreeing with node(?:, (\d+) NOT)?"
                      r"(?: \((\d+) of them undecided races\))?$", result.stdout, re.M)
    assert total, result.stdout[-6000:] + result.stderr
    failures, undecided = (int(g or 0) for g in total.groups())
    assert failures == undecided and result.returncode == (1 if failures else 0), result.stdout[-6000:] + result.stderr
    if len(INSTALLED) == 1:
        assert result.stdout.count("node: agree") + undecided == PROGRAMS, result.stdout[-6000:]
    else:
        for line in INSTALLED:
            summary = re.search(rf"^  {re.escape(line)}: (\d+) of (\d+) deterministic scenarios agree \(\d+%\)"
                                rf"(?:; (\d+) of (\d+) races agree)?$", result.stdout, re.M)
            assert summary, result.stdout[-6000:]
            agree, deterministic, races_agree, races = (int(g or 0) for g in summary.groups())
            assert agree == deterministic and races - races_agree <= undecided, summary.group(0)
            assert deterministic + races == PROGRAMS, summary.group(0)


def test_a_random_program_is_printed_whole_when_a_line_disagrees(tmp_path, capsys):
    """So that the next disagreement can be run again: the program's JSON, on one line."""
    from stallbench_lib import trace_text

    program = tmp_path / "random-1-2.json"
    program.write_text(json.dumps({"name": "random-1-2", "module": "cjs", "program": [{"op": "log", "text": "a"}]}))

    class Disagreeing:
        node = "a Node line"

        def verdict(self, i):
            return "DISAGREE"

    trace_text.print_program({"file": str(program)}, [Disagreeing()], 0, {str(program)})
    printed = re.search(r"the program \(save it as a \.json file to run it again\): (.*)$", capsys.readouterr().out, re.M)
    assert printed and json.loads(printed.group(1))["name"] == "random-1-2"


@pytest.mark.parametrize("args, words", [
    (["--random", "0"], "--random 0 is out of range: valid values are 1-1000"),
    (["--random", "3", "--seed", "-1"], "--seed -1 is out of range: valid values are 0 and up"),
    (["--random", "x"], "is not an integer"),
])
def test_bad_random_arguments(args, words):
    result = stallbench_command("trace", "--no-build", *args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr
