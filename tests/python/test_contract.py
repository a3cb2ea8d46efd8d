"""The seam between the bench binaries and the orchestrator (contract/protocol.schema.json): what the
real binaries write is what the schema declares, the dataclasses read exactly its fields, a binary of
another protocol is refused in one line, and the command's own conventions (--version, list --json,
completion) speak it."""
import dataclasses
import json
import re
import shutil
import stat
import subprocess

import pytest

from conftest import BUILD, stallbench_command
from stallbench_lib.parameters import Params
from stallbench_lib import catalogue, contract, runtimes, tidy
from stallbench_lib.build import bench_binaries
from stallbench_lib.profiles import PROFILES

BINARIES = bench_binaries(BUILD)


@pytest.mark.parametrize("family", sorted(BINARIES))
def test_every_binary_describes_itself_as_the_schema_says(family):
    out = subprocess.run([str(BINARIES[family]), "--stallbench-describe"], capture_output=True, text=True, timeout=60)
    described = contract.parse(out.stdout, "describe", family)
    assert described["protocol"] == contract.PROTOCOL
    benchmark = described["benchmarks"][0]["name"]
    cells = subprocess.run([str(BINARIES[family]), f"--stallbench-cells={benchmark}"], capture_output=True, text=True,
                           timeout=60)
    listed = contract.parse(cells.stdout, "cells", family)
    params = [p["name"] for p in described["benchmarks"][0]["params"]]
    # every parameter, in declaration order; node_line only in a cell that runs Node
    assert all(list(cell) == [p for p in params if p != runtimes.NODE_LINE or p in cell] for cell in listed["cells"])


def test_the_dataclasses_read_exactly_the_schemas_fields():
    assert [f.name for f in dataclasses.fields(catalogue.Param)] and \
        {f.name for f in dataclasses.fields(catalogue.Param)} == set(contract.fields("param"))
    assert {f.name for f in dataclasses.fields(catalogue.Metric)} == set(contract.fields("metric"))
    assert {f.name for f in dataclasses.fields(catalogue.Input)} == set(contract.fields("input"))
    # family and binary are the orchestrator's: where the benchmark was found
    assert {f.name for f in dataclasses.fields(catalogue.Benchmark)} - {"family", "binary"} == \
        set(contract.fields("benchmark"))


def test_a_records_statuses_are_the_results_csvs():
    assert tuple(contract.DEFINITIONS["end_record"]["properties"]["status"]["enum"]) == tidy.STATUSES


def test_the_rows_separators_are_reserved_by_the_harness():
    described = catalogue.describe(BINARIES["pool"]).declared
    separators = described["reserved"]["separators"]
    assert {";", "=", ","} <= set(separators)  # tidy's params, --set lists
    assert str(Params({"b": "2", "a": "1"})) == "a=1;b=2"
    # A Node cell's line: the parameter the harness adds, and the mark of its one-word label.
    assert described["reserved"]["node_line_param"] == runtimes.NODE_LINE
    assert runtimes.of_line("26") == "node" + described["reserved"]["node_line"] + "26"


@pytest.mark.parametrize("document, words", [
    ({"protocol": contract.PROTOCOL, "benchmark": "b"}, "cells: missing cells"),
    ({"protocol": contract.PROTOCOL, "benchmark": "b", "cells": [], "more": 1}, "unexpected field 'more'"),
    ({"protocol": contract.PROTOCOL, "benchmark": 3, "cells": []}, "cells.benchmark: expected string"),
    ({"protocol": contract.PROTOCOL + 1, "benchmark": "b", "cells": []}, "speaks stallbench protocol"),
    ({"benchmark": "b", "cells": []}, "speaks stallbench protocol None"),
])
def test_the_checker_refuses_what_the_schema_does_not_declare(document, words):
    with pytest.raises(contract.ProtocolError) as refused:
        contract.check(document, "cells", "bench_x")
    assert words in str(refused.value) and str(refused.value).startswith("bench_x") and "\n" not in str(refused.value)


def test_a_binary_of_another_protocol_stops_the_command_in_one_line(tmp_path):
    """An old build beside new scripts (or the reverse): exit 2 and one line, before anything runs."""
    (tmp_path / "benches").mkdir()
    described = json.loads(subprocess.run([str(BINARIES["pool"]), "--stallbench-describe"], capture_output=True,
                                          text=True, timeout=60).stdout)
    fake = tmp_path / "benches" / "bench_pool"
    fake.write_text("#!/bin/sh\ncat <<'EOF'\n" + json.dumps({**described, "protocol": contract.PROTOCOL + 1}) +
                    "\nEOF\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    for command in (["list", "--no-build"], ["run", "--no-build", "--profile", "smoke", "--out", str(tmp_path / "o")]):
        result = stallbench_command(*command, env={"STALLBENCH_BUILD_DIR": str(tmp_path)})
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert f"bench_pool speaks stallbench protocol {contract.PROTOCOL + 1}" in result.stderr
    assert not (tmp_path / "o").exists()


def test_list_json_is_the_declarations_in_the_schemas_shape():
    result = stallbench_command("list", "--json", "--no-build")
    assert result.returncode == 0, result.stderr
    listed = contract.check(json.loads(result.stdout), "list", "stallbench list --json")
    assert sorted(f["family"] for f in listed["families"]) == sorted(f.name for f in catalogue.load(BINARIES))
    assert list(listed["profiles"]) == list(PROFILES)


def test_version_names_the_project_commit_and_the_builds_libraries():
    result = stallbench_command("--version")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"stallbench \d+\.\d+\.\d+ \((commit [0-9a-f]{8}(, modified)?|no git commit)\)", lines[0])
    assert lines[1].startswith(f"build {BUILD}") and lines[1].endswith(":")
    libraries = dict(re.fullmatch(r"  (\S+)\s+(.+)", line).groups() for line in lines[2:])
    declared = {k: v for f in catalogue.load(BINARIES) for k, v in f.versions.items()}
    assert set(libraries) == set(declared) and {"compiler", "google-benchmark"} <= set(libraries)


def test_version_without_a_build_says_so_in_its_last_line(tmp_path):
    result = stallbench_command("--version", env={"STALLBENCH_BUILD_DIR": str(tmp_path)})
    assert result.returncode == 0 and result.stdout.startswith("stallbench ")
    assert result.stdout.splitlines()[-1] == f"build {tmp_path}: not built yet (scripts/stallbench list builds it)"


def _complete(script: str, *words: str) -> list[str]:
    """What the generated completion offers after `words` (the last one being completed)."""
    line = " ".join(f"'{w}'" for w in words)
    done = subprocess.run(["bash", "-c", f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _stallbench; "
                                         "printf '%s\\n' \"${COMPREPLY[@]}\""], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_completion_is_generated_from_the_parser():
    result = stallbench_command("completion", "bash")
    assert result.returncode == 0, result.stderr
    script = result.stdout
    assert _complete(script, "stallbench", "li") == ["list"]
    assert "--version" in _complete(script, "stallbench", "--")
    assert "--profile" in _complete(script, "stallbench", "run", "--pro")
    assert sorted(_complete(script, "stallbench", "run", "--profile", "")) == sorted(PROFILES)
    assert _complete(script, "stallbench", "list", "--j") == ["--json"]
    assert _complete(script, "stallbench", "completion", "") == ["bash"]


def test_the_trace_tools_documents_are_the_schemas_and_another_protocol_stops_trace(tmp_path):
    """stallbench_trace's answers (trace_run, trace_startup_race) pass the schema; a tool of another
    protocol stops `trace` in one line, exit 2."""
    tool = BUILD / "tools" / "stallbench_trace"
    scenario = tmp_path / "s.json"
    scenario.write_text('{"name": "s", "module": "cjs", "program": [{"op": "setTimeout", "ms": 1, "log": "t"}, '
                        '{"op": "setImmediate", "log": "i"}]}')
    ran = contract.parse(subprocess.run([str(tool), "run", "--runs", "2", str(scenario)], capture_output=True,
                                        text=True, timeout=60, check=True).stdout, "trace_run", "stallbench_trace")
    assert ran["protocol"] == contract.PROTOCOL and ran["scenarios"][0]["name"] == "s"
    races = contract.parse(subprocess.run([str(tool), "startup-race", str(scenario)], capture_output=True, text=True,
                                          timeout=60, check=True).stdout, "trace_startup_race", "stallbench_trace")
    assert races["lines"] and all(races["lines"].values())  # a timer armed by the main module races with the tail
    (tmp_path / "tools").mkdir()
    fake = tmp_path / "tools" / "stallbench_trace"
    fake.write_text(f"#!/bin/sh\ncase \"$1\" in startup-race) echo '{json.dumps({'protocol': contract.PROTOCOL + 1, 'lines': {}})}';; "
                    f"*) exec {tool} \"$@\";; esac\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    result = stallbench_command("trace", "--no-build", str(scenario), env={"STALLBENCH_BUILD_DIR": str(tmp_path)})
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"stallbench_trace speaks stallbench protocol {contract.PROTOCOL + 1}" in result.stderr


def test_regex_checks_reply_is_the_schemas_and_another_protocol_is_one_line(tmp_path):
    """regex_check's answer passes regex_check_reply; one of another protocol is refused in one line
    naming the helper, not read."""
    from stallbench_lib.errors import UsageError
    from stallbench_lib.families.regex import checker
    real = BUILD / "benches" / "regex_check"
    request = json.dumps({"engines": ["re2"], "regexes": [{"regex": "^a+$", "flags": ""}], "inputs": ["aa", "b"]})
    reply = contract.parse(subprocess.run([str(real)], input=request, capture_output=True, text=True, timeout=60,
                                          check=True).stdout, "regex_check_reply", "regex_check")
    assert reply["engines"]["re2"][0]["answers"] == "10"
    assert checker.run(real, ["re2"], [("^a+$", "")], ["aa", "b"])["re2"][0].answers == "10"
    fake = tmp_path / "regex_check"
    fake.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{json.dumps({**reply, 'protocol': contract.PROTOCOL + 1})}'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(UsageError) as refused:
        checker.run(fake, ["re2"], [("^a+$", "")], ["aa", "b"])
    assert f"regex_check speaks stallbench protocol {contract.PROTOCOL + 1}" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_regex_probes_lines_are_the_schemas_and_another_protocol_is_one_line(tmp_path):
    """regex_probe says its protocol first, then events that pass regex_probe_event; a probe of
    another protocol stops the triage in one line naming it, before any event is read."""
    from stallbench_lib.errors import UsageError
    from stallbench_lib.families.regex import triage
    from stallbench_lib.families.regex.patterns import Pattern, Pump
    real = BUILD / "benches" / "regex_probe"
    request = {"engine": "re2", "slow_ms": 50,
               "regexes": [{"regex": "^(a+)+$", "flags": "", "inputs": ["aaa!", "aaaaaa!"]},
                           {"regex": "(", "flags": "", "inputs": ["a"]}]}
    lines = subprocess.run([str(real)], input=json.dumps(request), capture_output=True, text=True, timeout=60,
                           check=True).stdout.splitlines()
    assert contract.parse(lines[0], "regex_probe_hello", "regex_probe") == {"protocol": contract.PROTOCOL}
    events = [contract.parse(line, "regex_probe_event", "regex_probe") for line in lines[1:]]
    assert [sorted(e) for e in events] == [["input", "regex", "start"], ["input", "matched", "ms", "regex"],
                                           ["input", "regex", "start"], ["input", "matched", "ms", "regex"],
                                           ["regex", "rejected"], ["done"]]
    pattern = Pattern("p", "^(a+)+$", None, "", "", (Pump("", "a"),), "!", None, None, None, None, "hand-written",
                      "", "")
    plan = {"re2": [(pattern.variants()[0], [4, 7])]}
    assert [r.metric for r in triage.probe(real, plan)] == ["match_ms", "matched"] * 2
    fake = tmp_path / "regex_probe"
    fake.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{json.dumps({'protocol': contract.PROTOCOL + 1})}'\n"
                    "exec sleep 60\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(UsageError) as refused:
        triage.probe(fake, plan)
    assert f"regex_probe speaks stallbench protocol {contract.PROTOCOL + 1}" in str(refused.value)
    assert "\n" not in str(refused.value)
