"""bisect: the search on scripted verdicts, a step's verdict from its metrics, the first-parent line
of a history with a merge, bad input, and a real bisection of a synthetic five-commit history
whose third commit makes tiny/sum do 60% more work."""
import json

import pytest

import bisect_repository
from conftest import BUILD
from stallbench_lib import cli
from stallbench_lib.errors import UsageError
from stallbench_lib.tracking import ab_verdict, bisection, revisions
from stallbench_lib.tracking.bisection import Bisection, Step
from stallbench_lib.tracking.comparison import Outcome
from stallbench_lib.tracking.revisions import Commit

TINY = BUILD / "tests" / "tiny_bench"
# A repetition long enough to span many time slices (see test_ab.py). A step's rounds go on until the
# interval is expected to be narrower than the minimum effect, which with a spread of 70% (a busy
# machine) a regressed step never reached: it ran all 250 rounds asked for, and the bisection 1,300
# cells. The verdict needs far fewer: at 80 rounds a 60% slowdown is significant many times over, and
# identical builds at a spread of 70% give an interval of about +-15%, inside the 25% minimum effect.
# What is tested is the search over real builds and paired rounds, not the resolution
# (docs/tracking.md measures that).
TINY_ARGS = ["--filter", "tiny/sum", "--set", "n=20000000", "--node", "none", "--min-effect", "25",
             "--max-rounds", "80"]
INJECTED_PCT = 60


def _line(n):
    return [Commit(f"{i:040x}", f"commit {i}") for i in range(n)]


def _scripted(first_bad, skipped=(), noisy=()):
    """measure(position) as a bisect step would return it, for a regression that starts at first_bad."""
    asked = []

    def measure(position):
        asked.append(position)
        verdict = (bisection.SKIPPED if position in skipped else bisection.NOISY if position in noisy
                   else bisection.REGRESSED if position >= first_bad else bisection.UNCHANGED)
        return Step(len(asked), position, Commit(str(position), ""), verdict)
    return measure, asked


@pytest.mark.parametrize("length, first_bad", [(2, 1), (5, 3), (9, 6), (9, 1), (9, 8), (17, 11)])
def test_the_search_names_the_first_regressed_commit_in_log2_steps(length, first_bad):
    found = Bisection(_line(length), confirmed=True)
    measure, asked = _scripted(first_bad)
    bisection.search(found, measure)
    assert found.isolated == found.line[first_bad] and found.result == "isolated"
    assert len(asked) <= (length - 2).bit_length() and len(set(asked)) == len(asked)
    assert all(0 < p < length - 1 for p in asked)  # GOOD and BAD are known; neither is measured again


def test_a_skipped_commit_is_passed_over_and_a_noisy_step_ends_the_search_inconclusive():
    found = Bisection(_line(9), confirmed=True)
    measure, asked = _scripted(6, skipped={4})
    bisection.search(found, measure)
    assert 4 in asked and found.isolated == found.line[6]
    found = Bisection(_line(9), confirmed=True)
    measure, asked = _scripted(6, skipped={5})  # the only commit before the first regressed one
    bisection.search(found, measure)
    assert found.isolated is None and found.result == "undecidable" and (found.good, found.bad) == (4, 6)
    found = Bisection(_line(9), confirmed=True)
    measure, asked = _scripted(6, noisy={4})
    bisection.search(found, measure)
    assert asked == [4] and found.result == "inconclusive" and (found.good, found.bad) == (0, 8)


def _compared(change, low, high, verdict, better="lower"):
    c = ab_verdict.PairedComparison(("tiny", "sum", "n=1", "sum_ms"), "ms", better, 20, 20, 1, 1, 1, change, 0.5,
                                    1, 1, 10.0, verdict, "", "", ci_low_pct=low, ci_high_pct=high)
    return Outcome([c], [])


@pytest.mark.parametrize("change, low, high, verdict, better, step", [
    (20, 15, 25, "regressed", "lower", "regressed"),
    (1, -4, 6, "unchanged", "lower", "unchanged"),
    (-6, -14, 3, "noisy", "lower", "unchanged"),   # faster, maybe a lot: no 10% slowdown fits in it
    (2, -6, 12, "noisy", "lower", "noisy"),        # a 12% slowdown still fits
    (6, -3, 14, "noisy", "higher", "unchanged"),   # higher is better: the worse end is -3%
    (-2, -12, 6, "noisy", "higher", "noisy"),
])
def test_a_step_is_clear_when_no_slowdown_of_the_minimum_effect_fits_its_interval(change, low, high, verdict,
                                                                                 better, step):
    assert bisection.step_verdict(_compared(change, low, high, verdict, better)) == step


def test_the_line_follows_first_parents_and_refuses_a_good_commit_merged_in(tmp_path):
    repo = tmp_path / "repo"
    commits = bisect_repository.make(repo, TINY, 2, 3)
    bisect_repository.git(repo, "checkout", "--quiet", "-b", "side", commits[0])
    bisect_repository.git(repo, "commit", "--quiet", "--allow-empty", "-m", "on the side")
    side = bisect_repository.git(repo, "rev-parse", "HEAD")
    bisect_repository.git(repo, "checkout", "--quiet", "main")
    bisect_repository.git(repo, "merge", "--quiet", "--no-ff", "-m", "merge side", "side")
    merge = bisect_repository.git(repo, "rev-parse", "HEAD")
    line = revisions.first_parent_line(commits[0], "main", repo)
    assert [c.hash for c in line] == [commits[0], commits[1], merge]
    assert line[-1].subject == "merge side"
    with pytest.raises(UsageError, match="not on BAD's first-parent line"):
        revisions.first_parent_line(side, "main", repo)


@pytest.mark.parametrize("good, bad, words", [
    ("HEAD~1", "HEAD", "--max-rounds 0 is out of range"),
    ("no-such-revision", "HEAD", "is not a git revision"),
    ("HEAD", "HEAD", "the same commit: nothing to bisect"),
    ("HEAD", "HEAD~1", "is not an ancestor of BAD"),
])
def test_bad_bisect_input_is_one_line(tmp_path, capsys, good, bad, words):
    repo = tmp_path / "repo"
    bisect_repository.make(repo, TINY, 2, 3)
    extra = ["--max-rounds", "0"] if "max-rounds" in words else []
    assert cli.main(["bisect", good, bad, "--filter", "tiny/sum", "--repository", str(repo), *extra,
                     "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err
    assert not (tmp_path / "out").exists()


def test_a_metric_no_cell_tracks_is_one_line_before_any_round(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(revisions, "AB_BUILDS", tmp_path / "ab")
    repo, out = tmp_path / "repo", tmp_path / "bisect"
    commits = bisect_repository.make(repo, TINY, 2, 2)
    assert cli.main(["bisect", commits[0], commits[1], "--repository", str(repo), *TINY_ARGS, "--metric", "n_done",
                     "--out", str(out)]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "no cell compared tracks the metric n_done (valid: sum_ms)" in last
    assert not out.exists()


def test_bisect_names_the_commit_that_injected_the_work(tmp_path, monkeypatch, capsys):
    """Real builds of a synthetic history (each commit's worktree and build under a temporary
    build/ab) and real paired rounds: the third of five commits makes tiny/sum 60% slower."""
    monkeypatch.setattr(revisions, "AB_BUILDS", tmp_path / "ab")
    repo, out = tmp_path / "repo", tmp_path / "bisect"
    commits = bisect_repository.make(repo, TINY, 5, 3, INJECTED_PCT)
    code = cli.main(["bisect", commits[0], commits[-1], "--repository", str(repo), *TINY_ARGS, "--out", str(out)])
    printed = capsys.readouterr()
    found = json.loads((out / "bisect.json").read_text())
    assert code == found["exit"] == 0, printed.err
    assert found["commit"] == {"hash": commits[2], "subject": f"commit 3: tiny/sum does {INJECTED_PCT}% more work"}
    assert printed.out.strip().splitlines()[-1] == f"first regressed commit: {commits[2]} {found['commit']['subject']}"
    steps = found["steps"]
    assert [s["commit"] for s in steps] == [commits[4], commits[2], commits[1]]  # BAD, then the middles
    assert [s["verdict"] for s in steps] == ["regressed", "regressed", "unchanged"]
    assert all(c["key"][3] == "sum_ms" for s in steps for c in s["comparisons"])
    for step in steps:
        injected = sum("stallbench_inject_work_pct:sum" in p.read_text()
                       for p in (out / f"step{step['step']}-{step['commit'][:8]}" / "current").glob("*/raw/*.json"))
        assert (injected > 0) == (step["commit"] != commits[1])
    assert sum(line.startswith("stallbench: bisect: step") for line in printed.err.splitlines()) == 2 * len(steps)
    assert "| 2 | `" in (out / "bisect.md").read_text()


def test_nothing_to_bisect_when_bad_is_not_worse(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(revisions, "AB_BUILDS", tmp_path / "ab")
    repo, out = tmp_path / "repo", tmp_path / "bisect"
    commits = bisect_repository.make(repo, TINY, 2, 3)  # no commit injects anything
    # "Nothing to bisect" needs BAD shown clean: no slowdown of the minimum effect in its interval
    # (else the step is inconclusive, exit 4). Identical builds clear a 50% minimum effect in about
    # ten rounds on a quiet machine; the rounds go on until they do (at most TINY_ARGS' 80), since
    # ten did not under a sanitizer build and the whole suite beside it (exit 4, 2026-12-04).
    args = [{"25": "50"}.get(a, a) for a in TINY_ARGS]
    assert cli.main(["bisect", commits[0], commits[1], "--repository", str(repo), *args, "--out", str(out)]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("stallbench: nothing to bisect: BAD") and str(out / "bisect.md") in last
    found = json.loads((out / "bisect.json").read_text())
    assert found["result"] == "nothing to bisect" and found["commit"] is None and len(found["steps"]) == 1
