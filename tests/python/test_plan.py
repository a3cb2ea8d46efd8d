"""Planning: which --set applies to which benchmark, and an empty plan is refused."""
import json
import stat

import pytest

from stallbench_lib.catalogue import Benchmark, Family, Param
from stallbench_lib.errors import UsageError
from stallbench_lib.contract import PROTOCOL
from stallbench_lib.plan import make_plan, sets_for
from stallbench_lib.profiles import PROFILES


def param(name, values=("1",)):
    return Param(name, list(values), list(values), list(values), [], None, "", "")


def bench(family, name, params, binary=None):
    return Benchmark(family, name, "", [param(p) for p in params], [], 60, binary)


def test_most_specific_set_wins():
    report, json_parse = bench("report", "price", ["mode", "rows"]), bench("json", "parse", ["mode"])
    sets = {"mode": ["inline"], "report.mode": ["chunked"], "json/parse.mode": ["pool"]}
    assert sets_for(report, sets) == {"mode": ["chunked"]}
    assert sets_for(json_parse, sets) == {"mode": ["pool"]}
    assert sets_for(bench("json", "other", ["mode"]), sets) == {"mode": ["inline"]}
    assert sets_for(report, {"rows": ["5"]}) == {"rows": ["5"]}


def test_scoped_unknown_parameter_is_refused():
    families = [Family("report", "", None, {}, [bench("report", "price", ["mode"])])]
    with pytest.raises(UsageError, match="unknown parameter in json"):
        make_plan(families, PROFILES["smoke"], None, {"json.mode": ["x"]})


def fake_binary(tmp_path, text: str):
    """A bench binary that answers every question with `text`."""
    script = tmp_path / "bench_fake"
    script.write_text(f"#!/bin/sh\ncat <<'EOF'\n{text}\nEOF\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def cells_text(*cells, protocol=PROTOCOL) -> str:
    return json.dumps({"protocol": protocol, "benchmark": "demo", "cells": list(cells)})


def test_an_empty_plan_is_refused(tmp_path):
    script = fake_binary(tmp_path, cells_text())  # lists no cell: every combination ruled out
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script)])]
    with pytest.raises(UsageError, match="nothing to run"):
        make_plan(families, PROFILES["smoke"], None, {})


def test_the_cells_are_the_ones_the_binary_lists_in_its_order(tmp_path):
    script = fake_binary(tmp_path, cells_text({"n": "2", "m": "x"}, {"n": "1", "m": "y"}))
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["m", "n"], script)])]
    cells = make_plan(families, PROFILES["smoke"], None, {})
    assert [c.params for c in cells] == [{"n": "2", "m": "x"}, {"n": "1", "m": "y"}]
    assert [list(c.params) for c in cells] == [["n", "m"], ["n", "m"]]


@pytest.mark.parametrize("text, words", [
    (cells_text({"n": "1"}, protocol=PROTOCOL + 1), f"speaks stallbench protocol {PROTOCOL + 1}, this orchestrator"),
    ("demo/n:1/iterations:1/manual_time", "wrote no JSON cells"),
    (json.dumps({"protocol": PROTOCOL, "benchmark": "demo", "cells": [{"n": 1}]}), "cells.cells[0].n: expected string"),
])
def test_a_cell_list_of_another_protocol_is_refused_in_one_line(tmp_path, text, words):
    script = fake_binary(tmp_path, text)
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script)])]
    with pytest.raises(UsageError) as refused:
        make_plan(families, PROFILES["smoke"], None, {})
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_benchmark_missing_here_is_skipped_in_one_line(tmp_path, capsys):
    script = fake_binary(tmp_path, cells_text({"n": "1"}))
    gone = bench("fake", "gone", ["n"], script)
    gone.missing = "no Chromium (install it)"
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script), gone])]
    cells = make_plan(families, PROFILES["smoke"], None, {})
    assert [c.benchmark.name for c in cells] == ["demo"]
    assert capsys.readouterr().err == "stallbench: fake: skipped (gone): no Chromium (install it)\n"
    with pytest.raises(UsageError, match="nothing to run"):
        make_plan(families, PROFILES["smoke"], "gone", {})


def test_a_benchmark_a_command_measures_is_not_planned_and_a_filter_naming_it_says_which_command(tmp_path, capsys):
    script = fake_binary(tmp_path, cells_text({"n": "1"}))
    own = bench("fake", "program", ["n"], script)
    own.measured_by = "doctor"
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script), own])]
    assert [c.benchmark.name for c in make_plan(families, PROFILES["smoke"], None, {})] == ["demo"]
    assert capsys.readouterr().err == ""  # not a benchmark skipped: one that is not run's to run
    with pytest.raises(UsageError, match=r"matches only benchmarks measured by a command of their own: "
                                         r"fake/program \(`stallbench doctor`\)"):
        make_plan(families, PROFILES["smoke"], "program", {})
    with pytest.raises(UsageError, match=r"--set n: unknown parameter"):
        make_plan([Family("fake", "", script, {}, [own])], PROFILES["smoke"], None, {"n": ["1"]})
