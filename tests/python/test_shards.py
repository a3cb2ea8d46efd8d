"""--shard K/N and stallbench merge: the partition's properties on the real default and nightly
plans, a group run and merged into one run, a group with a shard missing refused by compare and
marked by report, shards that disagree refused, and shards appending at once to one PostgreSQL store."""
import json
import random
import shutil
import threading
from dataclasses import astuple

import pytest

from conftest import BUILD, stallbench_command
from postgres_server import postgres_url  # noqa: F401 (a fixture)
from stallbench_lib import build, catalogue, cli, shard_plan, shards
from stallbench_lib.errors import UsageError
from stallbench_lib.plan import make_plan
from stallbench_lib.profiles import DEFAULT, PROFILES
from stallbench_lib.tidy import read_csv
from stallbench_lib.tracking import store, stored_durations

TINY = BUILD / "tests" / "tiny_bench"
TINY_CELLS = ["--set", "n=1000,2000,3000,4000,5000", "--node", "none", "--profile", "smoke", "--repetitions", "2"]


def test_parse_takes_k_of_n_and_refuses_anything_else():
    assert shards.parse("2/4") == shards.Shard(2, 4) and str(shards.parse("1/1")) == "1/1"
    for bad in ("0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", ""):
        with pytest.raises(UsageError, match="expected K/N with 1 <= K <= N"):
            shards.parse(bad)


def _units(count, seed=0):
    rng = random.Random(seed)
    return [shards.Unit(f"u{i}", shards.quantise(rng.lognormvariate(0, 2))) for i in range(count)]


def test_shards_are_disjoint_their_union_is_the_plan_and_the_order_given_does_not_matter():
    units = _units(200)
    for n in (1, 2, 3, 4, 8):
        parts = shards.assign(units, n)
        keys = [u.key for part in parts for u in part]
        assert sorted(keys) == sorted(u.key for u in units) and len(keys) == len(set(keys))
        shuffled = units[:]
        random.Random(n).shuffle(shuffled)
        assert shards.assign(shuffled, n) == parts and shards.digest(shards.assign(shuffled, n)) == shards.digest(parts)
        assert [shards.take(shuffled, shards.Shard(k, n))[0] for k in range(1, n + 1)] == \
            [{u.key for u in part} for part in parts]


def test_estimates_are_quantised_so_drift_rarely_moves_a_unit():
    assert shards.quantise(2.9) == shards.quantise(3.1) == 4.0
    assert shards.quantise(0) == shards.quantise(0.001) == shards.SMALLEST_SECONDS
    drifted = [shards.Unit(u.key, shards.quantise(u.seconds * 1.1)) for u in _units(200)]
    moved = sum(a != b for a, b in zip(_units(200), drifted))
    assert moved < 40  # a 10% drift crosses a power-of-two boundary for about a seventh of the units


@pytest.fixture(scope="module")
def plans():
    families = catalogue.load(build.bench_binaries(BUILD))
    return {name: make_plan(families, PROFILES[name], None, {}, ()) for name in (DEFAULT, "nightly")}


@pytest.mark.parametrize("name", [DEFAULT, "nightly"])
def test_the_real_plans_split_evenly_and_no_cell_is_split(plans, name):
    cells = plans[name]
    repetitions = PROFILES[name].repetitions
    for n in (1, 2, 3, 4, 8):
        taken = [shard_plan.split_cells(cells, shards.Shard(k, n), "g", repetitions, {})[0] for k in range(1, n + 1)]
        keys = [c.key for part in taken for c in part]
        assert sorted(keys) == sorted(c.key for c in cells) and len(keys) == len(set(keys))
        units, _ = shard_plan.units(cells, lambda c: c.key, shard_plan.cell_seconds({}, repetitions))
        loads = shards.loads(shards.assign(units, n))
        total = sum(loads)
        assert max(loads) <= max(1.1 * total / n, max(u.seconds for u in units)), (n, loads)
        assert max(loads) <= 1.1 * total / n  # the real plans have no cell longer than a tenth of a shard


def _tiny_build(path):
    (path / "benches").mkdir(parents=True)
    (path / "benches" / "bench_tiny").symlink_to(TINY)
    return str(path)


def _shard(build_dir, out, k, n, group="g1", *extra):
    result = stallbench_command("run", "--no-build", "--no-report", *TINY_CELLS, "--out", str(out),
                                "--shard", f"{k}/{n}", "--group", group, *extra,
                                env={"STALLBENCH_BUILD_DIR": build_dir, "STALLBENCH_STORE": ""})
    assert result.returncode == 0, result.stderr
    return out


def _rows(run_dir):
    return sorted((r.family, r.benchmark, r.params, r.repetition, r.metric, r.unit, r.status)
                  for r in read_csv(run_dir / "results.csv"))


@pytest.fixture(scope="module")
def group(tmp_path_factory):
    """The tiny benchmark's five cells run unsplit and in three shards."""
    tmp = tmp_path_factory.mktemp("group")
    build_dir = _tiny_build(tmp / "build")
    whole = stallbench_command("run", "--no-build", "--no-report", *TINY_CELLS, "--out", str(tmp / "whole"),
                               env={"STALLBENCH_BUILD_DIR": build_dir, "STALLBENCH_STORE": ""})
    assert whole.returncode == 0, whole.stderr
    for k in (1, 2, 3):
        _shard(build_dir, tmp / "shards", k, 3)
    (unsplit,) = (tmp / "whole").iterdir()
    return tmp, build_dir, unsplit


def test_a_merged_group_has_the_rows_of_the_unsplit_run_and_names_each_shards_machine(group, tmp_path):
    tmp, _, unsplit = group
    assert cli.main(["merge", str(tmp / "shards"), "--out", str(tmp_path)]) == 0
    merged = tmp_path / "g1"
    assert _rows(merged) == _rows(unsplit)
    meta = json.loads((merged / "meta.json").read_text())
    assert meta["complete"] is True and meta["run_id"] == "g1" and meta["cells"]["ok"] == 5
    assert sorted(meta["cell_seconds"]) == sorted(json.loads((unsplit / "meta.json").read_text())["cell_seconds"])
    assert [s["index"] for s in meta["group"]["shards"]] == [1, 2, 3]
    assert sum(s["cells"] for s in meta["group"]["shards"]) == 5
    assert {r.run_id for r in read_csv(merged / "results.csv")} == {"g1"}
    report = (merged / "report" / "report.md").read_text()
    assert "Merged from the 3 shards of group `g1`" in report
    assert all(s["machine"]["fingerprint"] in report for s in meta["group"]["shards"])
    assert stallbench_command("compare", str(unsplit), str(merged), "--out", str(tmp_path / "cmp")).returncode in (0, 1)


def test_a_group_with_a_shard_missing_is_incomplete_refused_by_compare_and_marked_by_report(group, tmp_path):
    tmp, _, unsplit = group
    two = tmp_path / "two"
    for run in sorted((tmp / "shards").iterdir()):
        if json.loads((run / "meta.json").read_text())["shard"]["index"] != 2:
                shutil.copytree(run, two / run.name)
    result = stallbench_command("merge", str(two), "--out", str(tmp_path / "merged"))
    assert result.returncode == 1 and "shard 2/3 missing" in result.stdout
    merged = tmp_path / "merged" / "g1"
    meta = json.loads((merged / "meta.json").read_text())
    assert meta["complete"] is False and meta["incomplete_because"] == "shard 2/3 missing"
    assert "**incomplete** (shard 2/3 missing)" in (merged / "report" / "report.md").read_text()
    assert "| 2/3 | **missing** |" in (merged / "report" / "report.md").read_text()
    refused = stallbench_command("compare", str(unsplit), str(merged), "--out", str(tmp_path / "cmp"))
    assert refused.returncode == 2 and "shard 2/3 missing" in refused.stderr and "compare only runs that finished" \
        in refused.stderr


def test_an_unfinished_shard_is_named(group, tmp_path):
    tmp, build_dir, _ = group
    out = tmp_path / "shards"
    for k in (1, 2):
        _shard(build_dir, out, k, 2, "g2")
    second = next(p for p in out.iterdir() if json.loads((p / "meta.json").read_text())["shard"]["index"] == 2)
    meta = json.loads((second / "meta.json").read_text())
    (second / "meta.json").write_text(json.dumps({**meta, "complete": False, "interrupted": "SIGTERM"}))
    result = stallbench_command("merge", str(out), "--out", str(tmp_path / "m"), "--no-report")
    assert result.returncode == 1
    assert f"shard 2/2 ({second.name}) incomplete: interrupted by SIGTERM" in result.stdout


def test_shards_that_disagree_or_repeat_are_refused_by_name(group, tmp_path):
    tmp, build_dir, _ = group
    runs = sorted((tmp / "shards").iterdir())
    odd = tmp_path / "odd"
    for run in runs:
        shutil.copytree(run, odd / run.name)
    copy = odd / "copy"
    copy.mkdir()
    meta = json.loads((runs[0] / "meta.json").read_text())
    meta["shard"]["digest"] = "0" * 16
    (copy / "meta.json").write_text(json.dumps(meta))
    (copy / "results.csv").write_text((runs[0] / "results.csv").read_text())
    result = stallbench_command("merge", str(odd), "--out", str(tmp_path / "m"))
    assert result.returncode == 2 and "computed different partitions" in result.stderr
    assert f"digest {'0' * 16}" in result.stderr and result.stderr.count("\n") == 1
    meta["shard"]["digest"] = json.loads((runs[0] / "meta.json").read_text())["shard"]["digest"]
    (copy / "meta.json").write_text(json.dumps(meta))
    result = stallbench_command("merge", str(odd), "--out", str(tmp_path / "m"))
    assert result.returncode == 2 and f"shard {meta['shard']['index']}/3 is there twice" in result.stderr
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("args, said", [
    (["--shard", "0/3", "--group", "g"], "expected K/N"),
    (["--shard", "1/3"], "needs --group"),
    (["--group", "g"], "needs --shard"),
    (["--shard", "1/3", "--group", "a b"], "use letters, digits"),
])
def test_bad_shard_options_are_one_line_and_exit_2(group, tmp_path, args, said):
    _, build_dir, _ = group
    result = stallbench_command("run", "--no-build", *TINY_CELLS, "--out", str(tmp_path), *args,
                                env={"STALLBENCH_BUILD_DIR": build_dir})
    assert result.returncode == 2 and said in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_durations_come_from_the_store_outside_the_group(group, tmp_path):
    tmp, _, unsplit = group
    location = str(tmp_path / "h.sqlite")
    assert cli.main(["store", "import", str(unsplit), str(tmp / "shards"), "--store", location]) == 0
    measured = json.loads((unsplit / "meta.json").read_text())["cell_seconds"]
    assert stored_durations.cell_seconds(location, "another") == {}  # today's runs: not read (the default cutoff)
    tomorrow = "9999-01-01T00:00:00+00:00"
    assert stored_durations.cell_seconds(location, "another", tomorrow)  # every cell's duration, from two runs of it
    assert sorted(stored_durations.cell_seconds(location, "another", tomorrow)) == sorted(measured)
    only_whole = stored_durations.cell_seconds(location, "g1", tomorrow)  # the group's own shards left out
    assert only_whole == pytest.approx(measured)
    with store.Store(location) as db:
        kinds = {r.kind for r in db.listing()}
    assert kinds == {"run", "shard"}  # history reads the merged group, not its parts


def test_three_shards_append_at_once_to_one_postgresql_store(group, postgres_url, tmp_path):
    tmp, build_dir, unsplit = group
    outs = [tmp_path / f"m{k}" for k in (1, 2, 3)]
    failures = []

    def shard(k):
        result = stallbench_command("run", "--no-build", "--no-report", *TINY_CELLS, "--out", str(outs[k - 1]),
                                    "--shard", f"{k}/3", "--group", "pg", "--store", postgres_url,
                                    env={"STALLBENCH_BUILD_DIR": build_dir})
        if result.returncode != 0 or not any(line.startswith("stored:") for line in result.stdout.splitlines()):
            failures.append([line for line in (result.stdout + result.stderr).splitlines() if "stor" in line])

    threads = [threading.Thread(target=shard, args=(k,)) for k in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with store.Store(postgres_url) as db:
        stored = db.group("pg")
    with store.Store(postgres_url) as db:
        listed = [(r.run_id, r.kind) for r in db.listing()]
    assert [meta["shard"]["index"] for meta, _ in stored] == [1, 2, 3], listed
    for (meta, rows), out in zip(stored, outs):
        (run_dir,) = out.iterdir()
        assert {r.run_id for r in rows} == {meta["run_id"]} == {run_dir.name}  # no shard's rows under another's id
        assert sorted(map(astuple, rows)) == sorted(map(astuple, read_csv(run_dir / "results.csv")))
    merged = tmp_path / "merged"
    assert cli.main(["merge", "--group", "pg", "--store", postgres_url, "--out", str(merged), "--no-report"]) == 0
    assert _rows(merged / "pg") == _rows(unsplit)
    with store.Store(postgres_url) as db:
        assert [r.kind for r in db.listing() if r.run_id == "pg"] == ["run"]


AB_CELLS = ["--set", "n=1000000,2000000,3000000,4000000", "--node", "none", "--min-rounds", "7", "--max-rounds", "7"]


@pytest.fixture(scope="module")
def ab_shards(tmp_path_factory):
    """An A/A of the tiny benchmark's four cells in two shards (two build folders of one binary)."""
    tmp = tmp_path_factory.mktemp("ab")
    base, current = _tiny_build(tmp / "base"), _tiny_build(tmp / "current")
    for k in (1, 2):
        result = stallbench_command("ab", base, current, *AB_CELLS, "--out", str(tmp / f"s{k}"), "--shard", f"{k}/2",
                                    "--group", "abg", env={"STALLBENCH_STORE": ""})
        assert result.returncode == 0, result.stderr  # a shard never gates: the merge does
    return tmp


def test_bh_over_a_merged_ab_group_equals_bh_over_the_same_rows_unsplit(ab_shards, tmp_path):
    from stallbench_lib.tracking import ab_rounds, ab_verdict
    from stallbench_lib.tracking.samples import samples_from_rows

    merged = stallbench_command("merge", str(ab_shards / "s1"), str(ab_shards / "s2"), "--out", str(tmp_path))
    assert merged.returncode in (0, 1, 4), merged.stderr  # 4: too few pairs to have the power to call it
    summary = json.loads((tmp_path / "ab.json").read_text())
    assert summary["exit"] == merged.returncode and summary["pairs"] == 4
    rows = {role: [r for k in (1, 2) for run in (ab_shards / f"s{k}" / role).iterdir()
                   for r in read_csv(run / "results.csv")] for role in ab_rounds.ROLES}
    values = ab_rounds.paired_values(rows["base"], rows["current"])
    base, current = samples_from_rows(rows["base"]), samples_from_rows(rows["current"])
    measured = [ab_verdict.measure(key, current[key].unit, base[key], current[key], values[key], "lower", 5.0, 0.05)
                for key in sorted(values) if key[3] == "sum_ms"]
    unsplit = ab_verdict.decide(measured, 0.05, [])
    expected = {"/".join(c.key): c.q_value for c in unsplit.comparisons}
    with open(tmp_path / "ab.csv") as f:
        import csv
        found = {f"{r['family']}/{r['benchmark']}/{r['params']}/{r['metric']}": float(r["q_value"])
                 for r in csv.DictReader(f) if r["metric"] == "sum_ms"}
    assert found == pytest.approx(expected) and len(found) == 4 and summary["tested"] == 4
    per_shard = [json.loads((ab_shards / f"s{k}" / "ab.json").read_text())["tested"] for k in (1, 2)]
    assert per_shard == [2, 2]  # each shard alone corrected over its half


def test_an_ab_group_with_a_shard_missing_exits_2_naming_it(ab_shards, tmp_path):
    merged = stallbench_command("merge", str(ab_shards / "s2"), "--out", str(tmp_path))
    assert merged.returncode == 2, merged.stderr
    assert "shard 1/2 missing" in (tmp_path / "ab.md").read_text()
    assert json.loads((tmp_path / "ab.json").read_text())["exit"] == 2


def test_the_shards_command_shows_every_shard_of_every_count(tmp_path):
    shown = stallbench_command("shards", "--no-build", "--count", "1,3", "--profile", "smoke", "--filter", "^report/",
                               "--node", "none", "--store", str(tmp_path / "none.sqlite"))
    assert shown.returncode == 0, shown.stderr
    rows = [line.split() for line in shown.stdout.splitlines()[2:]]
    assert [row[:2] for row in rows] == [["1", "1/1"], ["3", "1/3"], ["3", "2/3"], ["3", "3/3"]]
    assert sum(int(row[2]) for row in rows[1:]) == int(rows[0][2])  # the three shards hold the whole plan's cells
    assert "declared timeouts" in shown.stdout.splitlines()[0]


@pytest.mark.parametrize("args, said", [
    (["shards", "--count", "0"], "--count '0': expected shard counts 1-256"),
    (["shards", "--count", "2,x"], "--count '2,x'"),
    (["run", "--shard", "1/2", "--group", "g", "--durations-before", "yesterday"], "expected an ISO 8601 time"),
    (["run", "--shard", "1/2", "--group", "g", "--durations-before", "2026-12-02T02:00:00"], "with its zone"),
])
def test_bad_shards_and_durations_input_is_one_line(tmp_path, args, said):
    result = stallbench_command(*args, "--no-build", "--node", "none", "--out" if args[0] == "run" else "--profile",
                                str(tmp_path / "out") if args[0] == "run" else "smoke")
    assert result.returncode == 2 and said in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_durations_before_a_time_leave_out_runs_stored_after_it(group, tmp_path):
    tmp, _, unsplit = group
    location = str(tmp_path / "h.sqlite")
    assert cli.main(["store", "import", str(unsplit), "--store", location]) == 0
    started = json.loads((unsplit / "meta.json").read_text())["started_at"]
    assert stored_durations.cell_seconds(location, None, started) == {}  # stored at that time: after the cutoff
    later = shard_plan.durations_before("9999-01-01T00:00:00Z")
    assert stored_durations.cell_seconds(location, None, later)
