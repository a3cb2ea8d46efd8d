"""Node's start-up tail belongs to the model of each line, whatever the scenario declares: a user's
own main-module race (no `expect`) gets it under --node and without; the header says where it came
from (measured now, stored with the installed line on a date, none); with none, the model shows the
orders the race can take, never one of them as certain; the tail is stored the first time the model
of an installed line needs it."""
import json
import time
import os
import re
import subprocess

import pytest

from conftest import stallbench_command
from stallbench_lib import node as nodejs
from stallbench_lib import startup_tail

PINNED = nodejs.pinned()
NEWEST = list(PINNED)[-1]
INSTALLED = [line for line in PINNED if nodejs.installed_path(line)]
# A user's race: setTimeout(0) then setImmediate in the main module, and nothing declared about it.
RACE = [{"op": "setTimeout", "ms": 0, "log": "timeout"}, {"op": "setImmediate", "log": "immediate"}]
TIMEOUT_FIRST, IMMEDIATE_FIRST = "timeout → immediate", "immediate → timeout"


def _race(tmp_path):
    path = tmp_path / "race.json"
    path.write_text(json.dumps({"name": "users-race", "module": "cjs", "program": RACE}), encoding="utf-8")
    return path


def _stored(deps, line, version, samples, load_per_core=None):
    """A stored tail, measured at the load the machine has now unless told otherwise."""
    path = deps / "npm" / f"node-{line}" / startup_tail.STORED_NAME
    path.parent.mkdir(parents=True)
    cores = os.cpu_count()
    load = os.getloadavg()[0] if load_per_core is None else load_per_core * cores
    path.write_text(json.dumps({"node": f"v{version}", "measured": "2026-11-30T10:00:00Z", "samples_ms": samples,
                                "load_average": [load, load, load], "cores": cores}))
    return path


@pytest.mark.skipif("18" not in INSTALLED, reason="Node 18 not installed (scripts/bootstrap --node 18): the comparison cannot run")
def test_an_unannotated_main_module_race_under_node_18_agrees_with_node(tmp_path):
    """Node 18 spends about a millisecond after its main module, so its timer is due at the first
    check nearly every time; the model of 18 spends as long (it gave the immediate first in every run
    when the file declared no race). Node's tail is a distribution: the model may give the immediate
    first in a few runs of 64 where Node gave none (6% against 0% here at load 6), which no number of
    runs the trace makes can tell from agreement, so that is "undecided" (exit 1); never a disagreement."""
    result = stallbench_command("trace", "--no-build", "--node", "18", "--runs", "20", str(_race(tmp_path)))
    verdicts = re.findall(r"^   node: (\w+)", result.stdout, re.M)
    assert verdicts in (["agree"], ["race"], ["undecided"]), result.stdout + result.stderr
    assert result.returncode == (1 if verdicts == ["undecided"] else 0), result.stdout + result.stderr
    assert "measured now" in result.stdout


def test_the_model_alone_with_no_tail_does_not_print_a_certain_order(tmp_path):
    """No Node 18 in the dependency folder and none stored: the header says the odds are not modelled
    and both orders are shown as possible."""
    result = stallbench_command("trace", "--no-build", "--model-node", "18", "--runs", "20", str(_race(tmp_path)),
                                env={"STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "start-up tail: not modelled (Node 18 is not installed to measure it: scripts/bootstrap --node 18)" in \
        " ".join(result.stdout.split())
    assert "2 orders it can take" in result.stdout
    assert TIMEOUT_FIRST in result.stdout and IMMEDIATE_FIRST in result.stdout
    assert "every run" not in result.stdout


def test_the_model_alone_spends_the_tail_stored_with_the_line(tmp_path):
    """A tail stored with the installed line (here 5 ms: five clock ticks) puts the timer first in
    every run, and the header says when it was measured and where it is kept."""
    stored = _stored(tmp_path / "deps", NEWEST, PINNED[NEWEST], [5.0] * 8)
    result = stallbench_command("trace", "--no-build", "--model-node", NEWEST, "--runs", "10", str(_race(tmp_path)),
                                env={"STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert result.returncode == 0, result.stdout + result.stderr
    unwrapped = "".join(result.stdout.split())  # the header is wrapped, long paths too
    assert "".join(f"start-up tail: 5.000 ms median of 8 runs, Node {PINNED[NEWEST]}, measured on 2026-11-30 at load"
                   .split()) in unwrapped and "".join(f"(stored in {stored})".split()) in unwrapped
    assert "every run of 10 gave the same order (a race from the main module: 95% interval for its odds 72-100%)" \
        in result.stdout
    assert re.findall(r"^ +\d+  (\w+)$", result.stdout, re.M) == ["timeout", "immediate"]


@pytest.mark.skipif(NEWEST not in INSTALLED, reason=f"Node {NEWEST} not installed: nothing to measure the tail on")
def test_the_model_alone_measures_the_tail_now_where_the_line_is_installed(tmp_path):
    """Node's tail moves with the machine's state far more than its load average says (Node 20's median
    was 0.17 ms when installed on an idle machine, 0.25-0.35 ms in later batches at load 1.5 per core),
    so where the line is installed and Node may run, the model alone measures it now (not the 5 ms
    stored) and stores it in its place, for when Node may not be run (STALLBENCH_NODE=none)."""
    deps = tmp_path / "deps"
    _stored(deps, NEWEST, PINNED[NEWEST], [5.0] * 8)
    real = nodejs.installed_path(NEWEST).parents[2]  # <deps>/npm/node-LINE/node_modules
    (deps / "npm" / f"node-{NEWEST}" / "node_modules").symlink_to(real)
    race = str(_race(tmp_path))
    measured = stallbench_command("trace", "--no-build", "--model-node", NEWEST, "--runs", "5", race,
                                  env={"STALLBENCH_DEPS": str(deps)})
    assert measured.returncode == 0, measured.stdout + measured.stderr
    unwrapped = " ".join(measured.stdout.split())
    assert "measured now on the installed line" in unwrapped and "5.000 ms" not in unwrapped
    offline = stallbench_command("trace", "--no-build", "--model-node", NEWEST, "--runs", "5", race,
                                 env={"STALLBENCH_DEPS": str(deps), "STALLBENCH_NODE": "none"})
    assert offline.returncode == 0, offline.stdout + offline.stderr
    offline_header = " ".join(offline.stdout.split())
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert f"measured on {today} at load" in offline_header and "5.000 ms" not in offline_header


@pytest.mark.parametrize("text", ["{not json", json.dumps({"node": "v0.1.0", "measured": "2026-11-30", "samples_ms": [5.0]})],
                         ids=["damaged", "another version"])
def test_a_stored_tail_that_is_damaged_or_of_another_version_is_not_used(tmp_path, text):
    path = tmp_path / "deps" / "npm" / f"node-{NEWEST}" / startup_tail.STORED_NAME
    path.parent.mkdir(parents=True)
    path.write_text(text)
    result = stallbench_command("trace", "--no-build", "--model-node", NEWEST, str(_race(tmp_path)),
                                env={"STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "start-up tail: not modelled" in result.stdout


def test_a_tail_stored_at_a_far_other_load_is_not_used(tmp_path):
    """Node's start-up tail grows with the machine's load (Node 20's doubled between idle and load 15 per
    core here): a tail stored at a load far from this one's is measured again, or, with the line not
    installed to measure it, not modelled."""
    far = 3 * os.getloadavg()[0] / os.cpu_count() + 2 * startup_tail.STORED_LOAD_PER_CORE + 4
    _stored(tmp_path / "deps", NEWEST, PINNED[NEWEST], [5.0] * 8, load_per_core=far)
    result = stallbench_command("trace", "--no-build", "--model-node", NEWEST, str(_race(tmp_path)),
                                env={"STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "start-up tail: not modelled" in result.stdout and "5.000 ms" not in result.stdout


def test_a_scenario_the_tail_cannot_change_needs_none(tmp_path):
    """Nothing pending when the loop starts (the timer is armed from an immediate): no tail, and no
    Node is run to measure one."""
    path = tmp_path / "late.json"
    path.write_text(json.dumps({"name": "late", "module": "cjs", "program": [
        {"op": "setImmediate", "log": "immediate", "then": RACE}]}))
    result = stallbench_command("trace", "--no-build", "--model-node", "18", str(path),
                                env={"STALLBENCH_DEPS": str(tmp_path / "deps")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "start-up tail: not needed" in result.stdout


@pytest.mark.skipif(not INSTALLED, reason="no pinned Node line installed (scripts/bootstrap --node LINES): nothing to measure")
def test_recording_a_tail_stores_what_the_model_reads(tmp_path):
    """What the model of a line runs the first time it needs the tail: the file it writes is the stored tail
    trace reads."""
    line = INSTALLED[0]
    out = tmp_path / "deps" / "npm" / f"node-{line}" / startup_tail.STORED_NAME
    python = subprocess.run([str(startup_tail.paths.ROOT / "scripts" / "find-python")], capture_output=True, text=True,
                            check=True).stdout.strip()
    done = subprocess.run([python, "-m", "stallbench_lib.startup_tail", "record", str(nodejs.installed_path(line)), str(out)],
                          capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(startup_tail.paths.ROOT / "scripts"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["node"] == f"v{PINNED[line]}" and doc["runs"] == startup_tail.RECORD_RUNS
    assert 0 < len(doc["samples_ms"]) <= startup_tail.RECORD_RUNS
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STALLBENCH_DEPS", str(tmp_path / "deps"))
        tail, _ = startup_tail.stored(line)
    assert tail is not None and tail.samples_ms == pytest.approx(doc["samples_ms"])


@pytest.mark.parametrize("runs, probes", [(5, startup_tail.MEASURE_RUNS), (100, 100), (10_000, startup_tail.SPREAD_MAX_RUNS)])
def test_the_model_alone_measures_as_many_probes_as_the_runs_it_gives_odds_from(tmp_path, monkeypatch, runs, probes):
    """Odds read from 100 runs are only as good as the tail they were drawn with: without a Node
    compared, as with one, a probe run per run of the model, from MEASURE_RUNS to SPREAD_MAX_RUNS."""
    asked = []

    def probe_runs(node, count):
        asked.append(count)
        return [0.1] * count, ""
    monkeypatch.setattr(startup_tail, "_probe_runs", probe_runs)
    monkeypatch.setattr(startup_tail, "stored_path", lambda line: tmp_path / line / startup_tail.STORED_NAME)
    monkeypatch.setattr(nodejs, "installed_path", lambda line: "/bin/true")
    monkeypatch.setattr(nodejs, "probe", lambda line, binary: nodejs.Node(line, binary, "v0.0.0", "1.0.0", "1.0"))
    monkeypatch.delenv("STALLBENCH_NODE", raising=False)
    tail = startup_tail.without_node(NEWEST, True, runs)
    assert asked == [probes] and len(tail.samples_ms) == probes
    assert json.loads((tmp_path / NEWEST / startup_tail.STORED_NAME).read_text())["runs"] == probes
