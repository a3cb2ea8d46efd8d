"""ab: the paired statistics against brute force, the verdicts on synthetic rounds, revisions built
in worktrees, and two real runs between tiny builds, one doing more work."""
import itertools
import json
import shutil
import subprocess

import numpy as np
import pytest

from conftest import BUILD, ROOT, stallbench
from stallbench_lib.parameters import Params
from stallbench_lib import build as builder, cli
from stallbench_lib.tidy import Row
from stallbench_lib.tracking import ab_rounds, ab_verdict, paired, revisions
from stallbench_lib.tracking.comparison import Outcome
from stallbench_lib.tracking.samples import Sample

TINY = BUILD / "tests" / "tiny_bench"
KEY = ("fam", "bench", "n=1", "time_ms")


def _brute_force_p(d):
    ranks = paired._ranks(np.abs(d))
    total, t_plus = ranks.sum(), ranks[d > 0].sum()
    extreme = max(t_plus, total - t_plus)
    sums = [sum(r for r, positive in zip(ranks, signs) if positive)
            for signs in itertools.product((False, True), repeat=len(d))]
    return min(1.0, 2 * sum(s >= extreme - 1e-9 for s in sums) / 2 ** len(d))


@pytest.mark.parametrize("seed, n", [(1, 5), (2, 8), (3, 11)])
def test_signed_rank_p_is_the_exact_permutation_p(seed, n):
    d = np.random.default_rng(seed).normal(0.01, 0.02, n)
    assert paired.signed_rank_p(d) == pytest.approx(_brute_force_p(d))


def test_hodges_lehmann_interval_is_walsh_averages_at_the_critical_ranks():
    d = np.array([0.03, -0.01, 0.02, 0.05, 0.01, 0.04, 0.00, 0.06, 0.02, 0.035])
    walsh = sorted((a + b) / 2 for i, a in enumerate(d) for b in d[i:])
    estimate, low, high = paired.hodges_lehmann(d)
    assert estimate == pytest.approx(float(np.median(walsh)))
    # n = 10 at 95%: P(T+ <= 8) = 0.0244 <= 0.025 < P(T+ <= 9), so the 9th smallest and 9th largest.
    assert (low, high) == (pytest.approx(walsh[8]), pytest.approx(walsh[-9]))
    assert paired.hodges_lehmann(d[:5]) [1:] == (None, None)  # 5 rounds cannot give a 95% interval


def test_rounds_needed_lets_a_lone_regression_survive_the_correction():
    for tests in (1, 10, 700):
        n = paired.rounds_needed(tests, 0.05)
        assert paired.smallest_p(n) <= 0.05 / tests < paired.smallest_p(n - 1)


def _judged(pairs_by_key, failures=None, min_effect=5.0):
    comparisons = []
    for key, pairs in pairs_by_key.items():
        base = Sample("ms", [b for b, _ in pairs], {})
        current = Sample("ms", [c for _, c in pairs], dict((failures or {}).get(key, {})))
        comparisons.append(ab_verdict.measure(key, "ms", base, current, pairs, "lower", min_effect, 0.05))
    return {c.key: c for c in ab_verdict.decide(comparisons, 0.05, []).comparisons}


def test_verdicts_on_synthetic_rounds():
    rng = np.random.default_rng(7)
    drift = rng.normal(1, 0.3, 16)  # the machine's load: shared by both sides of a round
    noise = lambda: rng.normal(1, 0.003, 16)  # noqa: E731
    keys = {name: ("fam", "bench", "n=1", name) for name in ("slower", "same", "tiny", "wild", "crashed")}
    found = _judged({
        keys["slower"]: list(zip(100 * drift * noise(), 110 * drift * noise())),
        keys["same"]: list(zip(100 * drift * noise(), 100 * drift * noise())),
        keys["tiny"]: list(zip(100 * drift * noise(), 101 * drift * noise())),
        keys["wild"]: list(zip(100 * rng.lognormal(0, 0.5, 16), 100 * rng.lognormal(0, 0.5, 16))),
        keys["crashed"]: list(zip(100 * drift, 100 * drift)),
    }, failures={keys["crashed"]: {"crashed": "SIGSEGV during repetition 3"}})
    slower = found[keys["slower"]]
    assert slower.verdict == "regressed" and slower.ci_low_pct > 5 and slower.q_value < 0.05
    assert found[keys["same"]].verdict == "unchanged"  # the load cancels in the ratio
    assert found[keys["tiny"]].verdict == "unchanged" and "minimum effect" in found[keys["tiny"]].note
    assert found[keys["wild"]].verdict == "noisy"
    assert found[keys["crashed"]].verdict == "regressed" and found[keys["crashed"]].kind == "became crashed"


def _rows(values, metric="time_ms"):
    return [Row("r", "fam", "bench", Params({"n": 1}), i, metric, v, "ms", "ok", "") for i, v in enumerate(values)]


def test_a_cell_failing_on_both_sides_is_named_and_one_failing_on_one_side_is_not():
    failed = [Row("r", "fam", "bench", Params({"n": 1}), 0, "time_ms", None, "ms", "error", "playwright-core is not installed")]
    both = ab_rounds.Pair(("fam", "bench", "n=1"), {}, 0, rows={"base": failed, "current": failed})
    one = ab_rounds.Pair(("fam", "bench", "n=2"), {}, 1, rows={"base": _rows([1.0]), "current": failed})
    fine = ab_rounds.Pair(("fam", "bench", "n=3"), {}, 2, rows={"base": _rows([1.0]), "current": _rows([1.0])})
    assert ab_rounds.failed_on_both_sides([both, one, fine]) == [
        "fam/bench n=1: error: playwright-core is not installed"]


def test_the_instructions_gate_leaves_a_counted_cells_wall_time_out_of_the_exit_code():
    def judged(params, metric, verdict):
        c = ab_verdict.measure(("fam", "bench", params, metric), "ms", Sample("ms", [], {}), Sample("ms", [], {}), [],
                               "lower", 5.0, 0.05)
        c.verdict = verdict
        return c

    counted_wall = judged("n=1", "time_ms", "regressed")         # load moved it; its count did not
    counted = judged("n=1", "instructions", "unchanged")
    uncounted_wall = judged("n=2", "time_ms", "regressed")       # no count to gate on: wall time gates
    counted_too = judged("n=3", "instructions", "regressed")
    everything = [counted_wall, counted, uncounted_wall, counted_too]
    assert ab_verdict.gate(Outcome(everything, [], 0.05), False) == [counted_wall, uncounted_wall, counted_too]
    gated = Outcome(everything, [], 0.05)
    assert ab_verdict.gate(gated, True) == [uncounted_wall, counted_too]
    assert "1 wall-time regressions of counted cells are reported, not gated" in gated.notes[-1]


def test_a_cell_settles_once_its_interval_is_narrower_than_the_minimum_effect():
    settings = ab_rounds.Settings(min_rounds=6, max_rounds=30, budget_s=60, min_effect=lambda m, d: d or 5.0,
                                  declarations={"fam/bench": {"time_ms": {"tracked": True}}})
    pair = ab_rounds.Pair(("fam", "bench", "n=1"), {}, 0, rounds=5)
    steady = [100 + 0.1 * i for i in range(5)]
    pair.rows = {"base": _rows(steady), "current": _rows([v * 1.001 for v in steady])}
    assert not ab_rounds._settled(pair, settings)  # too few rounds
    pair.rounds = 6
    pair.rows = {"base": _rows(steady + [100]), "current": _rows([v * 1.001 for v in steady] + [100.1])}
    assert ab_rounds._settled(pair, settings)
    wild = [100, 150, 80, 130, 60, 90]
    pair.rows = {"base": _rows(wild), "current": _rows(wild[::-1])}
    assert not ab_rounds._settled(pair, settings)


def test_two_slow_rounds_in_ten_keep_a_cell_running_though_the_median_spread_is_small():
    # Eight rounds within 15%, two 2x and 2.6x slow: the median |d| reads a narrow interval, the
    # reported one reaches past a 50% minimum effect (as bisect's step at CI, 2026-12-05).
    d = np.log([1.1, 0.9, 1.12, 0.92, 2.0, 2.6, 1.05, 0.95, 1.15, 0.88])
    sd_width = 2 * 1.96 * paired.robust_sd(d) / np.sqrt(len(d)) * 100
    _, low, high = paired.hodges_lehmann(d)
    assert sd_width < 50 < paired.as_pct(high) - paired.as_pct(low)
    assert paired.expected_width_pct(d) >= 50


@pytest.mark.parametrize("seed", range(5))
def test_the_expected_width_reads_the_magnitudes_only(seed):
    # Optional stopping keeps the signed-rank test exact only if the rule never sees the signs.
    rng = np.random.default_rng(seed)
    d = rng.standard_t(3, size=12) * 0.1
    flipped = d * rng.choice([-1.0, 1.0], size=len(d))
    assert paired.expected_width_pct(d) == paired.expected_width_pct(flipped) == paired.expected_width_pct(-d)


def test_a_revision_is_built_once_in_its_own_worktree(tmp_path, monkeypatch):
    monkeypatch.setattr(revisions, "AB_BUILDS", tmp_path / "ab")
    calls = []

    def fake_build(preset, source, build):
        calls.append((source, build))
        (build / "benches").mkdir(parents=True, exist_ok=True)
        return build

    monkeypatch.setattr(builder, "ensure_built", fake_build)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    try:
        first = revisions.resolve("base", "HEAD")
        second = revisions.resolve("base", commit)
        source = tmp_path / "ab" / commit / "src"
        assert first.build == second.build == tmp_path / "ab" / commit / "build"
        assert calls == [(source, first.build)] * 2 and first.git["commit"] == commit
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=source, capture_output=True, text=True).stdout.strip()
        assert head == commit
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tmp_path / "ab" / commit / "src")], cwd=ROOT,
                       capture_output=True)


@pytest.mark.parametrize("args, words", [
    (["no-such-revision", "HEAD"], "neither a build directory"),
    (["HEAD", "HEAD", "--instructions-gate"], "--instructions-gate needs --instructions"),
    (["HEAD", "HEAD", "--max-rounds", "0"], "--max-rounds 0 is out of range"),
    (["HEAD", "HEAD", "--budget", "-1"], "--budget -1 is out of range"),
])
def test_bad_ab_input_is_one_line(tmp_path, capsys, args, words):
    assert cli.main(["ab", *args, "--out", str(tmp_path / "ab")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err
    assert not (tmp_path / "ab").exists()


def _tiny_build(path):
    (path / "benches").mkdir(parents=True)
    (path / "benches" / "bench_tiny").symlink_to(TINY)
    return path


def test_ab_between_tiny_builds_catches_the_one_doing_more_work(tmp_path):
    """Real processes, paired rounds: CURRENT's loop does four times the work (the A/B knob), which
    no load on the machine can hide (n is large enough that a repetition spans many time slices: at
    3,000,000 a repetition took 1.4 ms and one lost slice made it ten times slower); both sides are ordinary run directories, and only CURRENT ran
    with the knob."""
    base, current = _tiny_build(tmp_path / "a"), _tiny_build(tmp_path / "b")
    out = tmp_path / "ab"
    counting = ["--instructions"] if shutil.which("valgrind") else []
    result = stallbench("ab", str(base), str(current), "--set", "n=20000000", "--node", "none", "--min-rounds", "7",
                        "--max-rounds", "7", "--inject", "tiny/sum:300", "--out", str(out), *counting)
    summary = json.loads((out / "ab.json").read_text())
    assert result.returncode == summary["exit"] == 1, result.stderr
    assert sorted(summary["regressed"]) == ["tiny/sum/n=20000000/" + m for m in ["instructions"] * bool(counting)
                                            + ["sum_ms"]]
    assert summary["rounds"] == 7
    tiny = summary["geomean"]["families"]["tiny"]  # the one summary number says the same, with its interval
    assert 0 < tiny["ci_low_pct"] <= tiny["change_pct"] <= tiny["ci_high_pct"]
    assert summary["geomean"]["overall"] == tiny
    runs = {role: ROOT / summary[role]["run_dir"] for role in ("base", "current")}
    for role, run in runs.items():
        meta = json.loads((run / "meta.json").read_text())
        assert meta["complete"] and meta["ab"]["side"] == role
        lines = (run / "results.csv").read_text().splitlines()[1:]
        assert sorted(int(line.split(",")[4]) for line in lines if ",sum_ms," in line) == list(range(7))
        assert sum(",instructions," in line for line in lines) == 5 * bool(counting)
        injected = [p for p in (run / "raw").glob("*-round*.json") if "stallbench_inject_work_pct:sum" in p.read_text()]
        assert len(injected) == (7 if role == "current" else 0)
    assert "**regressed**" in (out / "ab.md").read_text()


@pytest.mark.parametrize("has_commands", [True, False])
def test_a_revisions_worktree_is_configured_without_tests_and_builds_its_commands(tmp_path, monkeypatch, has_commands):
    steps = []

    def step(what, command, log, cwd):
        steps.append(command)
        if what == "configure":  # what CMake writes: the commands' target only where the revision has it
            (tmp_path / "build" / "build.ninja").write_text(
                "rule x\n" + ("build stallbench_commands: phony bench_x\n" if has_commands else "build all: phony\n"))

    monkeypatch.setattr(builder, "_step", step)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "CMakePresets.json").write_text("{}")
    builder.ensure_built("release", source=tmp_path / "src", build=tmp_path / "build")
    configure, compile_ = steps
    assert builder.TESTS_OFF in configure  # ab runs the revision's benches, never its tests
    assert (compile_[-2:] == ["--target", builder.COMMANDS]) == has_commands  # an older revision: everything
