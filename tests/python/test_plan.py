"""Planning: which --set applies to which benchmark, and an empty plan is refused."""
import stat

import pytest

from stallbench_lib.catalogue import Benchmark, Family, Param
from stallbench_lib.errors import UsageError
from stallbench_lib.plan import make_plan, parse_cell_name, sets_for
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


def test_an_empty_plan_is_refused(tmp_path):
    script = tmp_path / "bench_fake"
    script.write_text("#!/bin/sh\nexit 0\n")  # lists no test: every combination ruled out
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script)])]
    with pytest.raises(UsageError, match="nothing to run"):
        make_plan(families, PROFILES["smoke"], None, {})


def test_cell_names_read_only_declared_parameters():
    b = bench("pool", "saturation", ["jobs", "iters"])
    assert parse_cell_name(b, "saturation/jobs:4/iters:300000/iterations:1/manual_time") == {"jobs": "4", "iters": "300000"}


def test_a_benchmark_missing_here_is_skipped_in_one_line(tmp_path, capsys):
    script = tmp_path / "bench_fake"
    script.write_text("#!/bin/sh\necho 'demo/n:1/iterations:1/manual_time'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    gone = bench("fake", "gone", ["n"], script)
    gone.missing = "no Chromium (install it)"
    families = [Family("fake", "", script, {}, [bench("fake", "demo", ["n"], script), gone])]
    cells = make_plan(families, PROFILES["smoke"], None, {})
    assert [c.benchmark.name for c in cells] == ["demo"]
    assert capsys.readouterr().err == "stallbench: fake: skipped (gone): no Chromium (install it)\n"
    with pytest.raises(UsageError, match="nothing to run"):
        make_plan(families, PROFILES["smoke"], "gone", {})
