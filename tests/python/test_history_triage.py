"""history's triage over synthetic nights: a change accepted as intended stops alerting and is shown
as accepted (kept in the history store, SQLite and PostgreSQL, and in the history branch's
accepted.json, which `scripts/nightly record` carries into the store); a spike shorter than the
minimum segment is an outlier, not a change point; --machines all sets machines side by side; bad
input is one line."""
import json
import os
import subprocess
import uuid

import pytest

from conftest import BUILD, ROOT
from postgres_server import postgres_url  # noqa: F401 (a fixture)
from stallbench_lib import cli
from stallbench_lib.tracking import history_page, store
from synthetic_runs import MACHINE, noisy, write_run

OTHER = {**MACHINE, "fingerprint": "bbbbbbbbbbbb"}
STEP_AT = 8  # the first night of the new level in `_nights`


@pytest.fixture(scope="module")
def commits():
    """A chain of 20 commits git knows (HEAD's tree, messages of their own, no branch): the nights'
    commits, so that --accept resolves them as it would a real history's."""
    chain, parent = [], "HEAD"
    tag = uuid.uuid4().hex
    for i in range(20):
        parent = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", "HEAD^{tree}",
                                 "-p", parent, "-m", f"history triage test {tag} {i}"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
        chain.append(parent)
    return chain


def _nights(root, commits, centres, machine=MACHINE, first=0):
    """One run per centre (time_ms around it, 2% noise; a steady second cell), night i at commits[i]."""
    for i, centre in enumerate(centres, start=first):
        write_run(root / f"{machine['fingerprint'][:4]}-{i:03d}",
                  {("n=1", "time_ms"): noisy(centre, 5, 0.02, i), ("n=2", "time_ms"): noisy(80, 5, 0.02, 100 + i)},
                  machine=machine, commit=commits[i], started=f"2026-01-{i + 1:02d}T00:00:00+00:00")


def _stepped(tmp_path, commits):
    """16 nights, time_ms 25% slower from night STEP_AT on: one regression."""
    results = tmp_path / "history"
    _nights(results / "runs", commits, [100] * STEP_AT + [125] * (16 - STEP_AT))
    return results


def _history(capsys, *args):
    code = cli.main(["history", "--fingerprint", MACHINE["fingerprint"], *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _rows(printed, title=None):
    """The rows of a printed table, header and rule left out: the first one (the regressions), or the
    first after `title`."""
    lines = (printed.split(title, 1)[1] if title else printed).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i, line in enumerate(lines) if i > start and not line.startswith("|")), len(lines))
    return lines[start + 2:end]


def test_the_stepped_history_alerts(tmp_path, capsys, commits):
    code, out, _ = _history(capsys, "--results", str(_stepped(tmp_path, commits)), "--out", str(tmp_path / "page"))
    assert code == 0
    (row,) = _rows(out)
    assert "time_ms" in row and f"{commits[STEP_AT - 1][:8]}..{commits[STEP_AT][:8]} (1 commits)" in row
    assert "Accepted as intended" not in out


@pytest.mark.parametrize("revisions", [
    lambda c: c[STEP_AT],                              # the one commit
    lambda c: f"{c[STEP_AT - 1]}..{c[STEP_AT]}",       # exactly the change's range
    lambda c: f"{c[STEP_AT - 4][:10]}..{c[STEP_AT + 2][:10]}",  # a wider range around it
], ids=["one commit", "its range", "a wider range"])
def test_an_accepted_change_stops_alerting_and_is_shown_accepted(tmp_path, capsys, commits, revisions):
    results, page = _stepped(tmp_path, commits), tmp_path / "page"
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(page), "--accept", revisions(commits),
                            "--reason", "the grid doubled <on purpose>")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("accepted:")] == [
        line for line in out.splitlines() if "holds 1 change points" in line]
    (only,) = _rows(out)
    assert "no regression found" in only
    (accepted_row,) = _rows(out, "Accepted as intended")
    assert "time_ms" in accepted_row and "the grid doubled &lt;on purpose&gt;" in accepted_row
    kept = json.loads((results / "accepted.json").read_text())
    assert len(kept) == 1 and commits[STEP_AT] in kept[0]["commits"] and kept[0]["reason"].startswith("the grid")
    markdown = (page / "history.md").read_text()
    assert "**0 regressions** (1 changes accepted as intended)" in markdown
    assert "## Accepted as intended" in markdown and "the grid doubled" in (page / "index.html").read_text()
    # Read again later, without --accept: the acceptance is in the folder, the change still accepted.
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(page))
    assert "no regression found" in out and len(_rows(out, "Accepted as intended")) == 1


def test_accepting_a_range_without_the_change_says_so_and_it_still_alerts(tmp_path, capsys, commits):
    results = _stepped(tmp_path, commits)
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"),
                            "--accept", f"{commits[1]}..{commits[3]}", "--reason", "an unrelated change")
    assert code == 0
    said = [line for line in out.splitlines() if line.startswith("accepted:")]
    assert len(said) == 1 and "holds no change point" in said[0] and "(2 commits)" in said[0]
    assert len(_rows(out)) == 1 and "Accepted as intended" not in out


def _accepted_through_a_store(location, tmp_path, capsys, commits):
    """Accept in the store directly; then load a folder's accepted.json into a second store by `store
    import`: both read back, and history from either shows the change accepted, not alerting."""
    results = _stepped(tmp_path, commits)
    assert cli.main(["store", "import", str(results), "--store", location]) == 0
    code, out, _ = _history(capsys, "--store", location, "--out", str(tmp_path / "page"),
                            "--accept", commits[STEP_AT], "--reason", "intended")
    assert code == 0 and "no regression found" in out and len(_rows(out, "Accepted as intended")) == 1
    with store.Store(location) as db:
        (kept,) = db.acceptances()
    assert kept.commits == (commits[STEP_AT],) and kept.reason == "intended"
    assert not (results / "accepted.json").exists()  # a store's history keeps its acceptances in the store
    return results


def test_sqlite_store_keeps_acceptances_and_imports_them_from_a_folder(tmp_path, capsys, commits):
    results = _accepted_through_a_store(str(tmp_path / "a.sqlite"), tmp_path, capsys, commits)
    _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"), "--accept",
             f"{commits[STEP_AT - 1]}..{commits[STEP_AT]}", "--reason", "from the branch")
    second = str(tmp_path / "b.sqlite")
    assert cli.main(["store", "import", str(results), "--store", second]) == 0
    assert "1 accepted changes from accepted.json" in capsys.readouterr().out
    assert cli.main(["store", "import", str(results), "--store", second]) == 0  # twice: nothing new
    assert "accepted changes" not in capsys.readouterr().out
    code, out, _ = _history(capsys, "--store", second, "--out", str(tmp_path / "page2"))
    assert "no regression found" in out and "from the branch" in out


def test_postgresql_store_keeps_acceptances(tmp_path, capsys, commits, postgres_url):
    _accepted_through_a_store(postgres_url, tmp_path, capsys, commits)


def test_a_one_night_spike_is_an_outlier_not_a_change_point(tmp_path, capsys, commits):
    results = tmp_path / "history"
    _nights(results / "runs", commits, [100] * 9 + [140] + [100] * 10)
    page = tmp_path / "page"
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(page))
    assert code == 0 and "no regression found" in out
    (outlier,) = _rows(out, "Outliers")
    assert "aaaa-009" in outlier and commits[9][:8] in outlier
    markdown = (page / "history.md").read_text()
    assert "0 change points, **0 regressions**, 1 outliers" in markdown and "## Outliers" in markdown
    assert list(page.glob("trend-*.png"))  # the cell with the outlier is drawn


def test_min_segment_decides_between_a_new_level_and_outliers(tmp_path, capsys, commits):
    """The last three nights 25% slower: a change with segments of at least 3 runs (the default), three
    outliers when a change needs 4 runs on either side."""
    results = tmp_path / "history"
    _nights(results / "runs", commits, [100] * 12 + [125] * 3)
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"))
    (row,) = _rows(out)
    assert code == 0 and "aaaa-012" in row and "Outliers" not in out
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"), "--min-segment", "4")
    assert code == 0 and "no regression found" in out
    assert [r.split("|")[4].strip() for r in _rows(out, "Outliers")] == ["aaaa-012", "aaaa-013", "aaaa-014"]


def test_machines_all_sets_every_machine_side_by_side(tmp_path, capsys, commits, monkeypatch):
    results = tmp_path / "history"
    _nights(results / "runs", commits, [100] * 12)
    _nights(results / "runs", commits, [60] * 6 + [75] * 6, machine=OTHER)
    drawn = []
    save = history_page.figures.save

    def keep_labels(fig, *args):
        drawn.append([ax.get_legend_handles_labels()[1] for ax in fig.axes])
        return save(fig, *args)

    monkeypatch.setattr(history_page.figures, "save", keep_labels)
    page = tmp_path / "page"
    assert cli.main(["history", "--results", str(results), "--machines", "all", "--out", str(page)]) == 0
    out = capsys.readouterr().out
    (row,) = _rows(out)
    assert row.startswith(f"| {OTHER['fingerprint']} |")  # the machine that moved, named
    assert "(24 runs, 2 machines, 4 series)" in out
    (panels,) = drawn  # the cell that moved: one trace per machine
    assert panels == [[MACHINE["fingerprint"], OTHER["fingerprint"]]]
    steady = (page / "history.md").read_text().split("## Steady series")[1]
    assert f"| {MACHINE['fingerprint']} |" in steady and f"| {OTHER['fingerprint']} |" in steady
    # The default stays one machine: this one's history has no regression and no second machine.
    code, out, _ = _history(capsys, "--results", str(results), "--out", str(tmp_path / "one"))
    assert "no regression found" in out and OTHER["fingerprint"] not in out and "(12 runs, 2 series)" in out


def _nightly_job(nights, run_id, commits, night):
    """A job folder as `scripts/nightly measure` leaves it: ab.json naming tonight's CURRENT run."""
    job = nights / run_id
    tonight = job / "ab" / "current" / f"aaaa-{night:03d}"
    tonight.parent.mkdir(parents=True)
    write_run(tonight, {("n=1", "time_ms"): noisy(125, 5, 0.02, night), ("n=2", "time_ms"): noisy(80, 5, 0.02, 0)},
              commit=commits[night], started=f"2026-01-{night + 1:02d}T00:00:00+00:00")
    (job / "ab" / "ab.json").write_text(json.dumps({"current": {"run_dir": str(tonight), "run_id": tonight.name}}))
    return job


def test_an_acceptance_in_the_history_branch_survives_the_nightly_record(tmp_path, capsys, commits):
    branch = _stepped(tmp_path, commits)  # the history branch's checkout: runs/ of 16 nights
    _history(capsys, "--results", str(branch), "--out", str(tmp_path / "page"), "--accept", commits[STEP_AT],
             "--reason", "parser rewrite")
    kept = (branch / "accepted.json").read_bytes()
    nights = tmp_path / "nights"
    job = _nightly_job(nights, "night-17", commits, 16)
    env = {**os.environ, "STALLBENCH_NIGHTS": str(nights), "STALLBENCH_BUILD_DIR": str(BUILD)}
    result = subprocess.run([str(ROOT / "scripts" / "nightly"), "record", "night-17", str(branch)], capture_output=True,
                            text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    assert (branch / "accepted.json").read_bytes() == kept and (branch / "runs" / "aaaa-016").is_dir()
    markdown = (job / "history" / "history.md").read_text()
    assert "17 runs" in markdown and "**0 regressions** (1 changes accepted as intended)" in markdown
    assert "parser rewrite" in markdown


def test_the_workflow_commits_the_acceptances_with_the_runs():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "nightly-history.yml").read_text())  # both nightlies'
    commit = next(s for s in flow["jobs"]["history"]["steps"] if "commit" in s.get("run", ""))
    assert "git add runs" in commit["run"] and "accepted.json" in commit["run"]


@pytest.mark.parametrize("args, words", [
    (["--accept", "HEAD"], "needs --reason"),
    (["--accept", "HEAD", "--reason", "  "], "needs --reason"),
    (["--reason", "why"], "goes with --accept"),
    (["--accept", "no-such-revision-anywhere", "--reason", "why"], "git cannot resolve 'no-such-revision-anywhere'"),
    (["--accept", "HEAD..HEAD~1", "--reason", "why"], "holds no commit"),
    (["--accept", "HEAD...HEAD~1", "--reason", "why"], "valid forms are REV"),
    (["--accept=--all", "--reason", "why"], "valid forms are REV"),
    (["--min-segment", "1"], "valid values are 2 or more"),
    (["--machines", "all"], "names one machine and --machines all"),
])
def test_bad_input_is_one_line_and_nothing_is_written(tmp_path, capsys, commits, args, words):
    results = _stepped(tmp_path, commits)
    code, out, err = _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"), *args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err
    assert not (results / "accepted.json").exists() and not (tmp_path / "page").exists()


@pytest.mark.parametrize("text, words", [
    ("{not json", "not a readable list of acceptances"),
    ('{"a": 1}', "not a list of acceptances"),
    ('[{"revisions": "x"}]', "an acceptance without 'end'"),
    ('[{"revisions": "x", "end": "y", "commits": 3, "reason": "r", "accepted_at": "t"}]', "not a list of commit"),
])
def test_a_damaged_accepted_json_is_one_line(tmp_path, capsys, commits, text, words):
    results = _stepped(tmp_path, commits)
    (results / "accepted.json").write_text(text)
    code, _, err = _history(capsys, "--results", str(results), "--out", str(tmp_path / "page"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err
    assert cli.main(["store", "import", str(results), "--store", str(tmp_path / "s.sqlite")]) == 2
