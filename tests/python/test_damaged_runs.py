"""Damaged runs: compare refuses a damaged, killed or empty side with exit 2 naming it (exit 1 means
"regressed" only); history and report pass a damaged run over with one line and go on."""
import json

import pytest

from stallbench_lib import cli
from synthetic_runs import MACHINE, noisy, write_run

VALUES = {("n=1", "time_ms"): noisy(10, 5, 0.02, 1)}


def good(path):
    return write_run(path, VALUES)


def damage_truncate(run):
    text = (run / "results.csv").read_text()
    (run / "results.csv").write_text(text[: len(text) - 7])


def damage_cut_at_a_field(run):
    lines = (run / "results.csv").read_text().splitlines()
    (run / "results.csv").write_text("\n".join(lines[:-1] + [",".join(lines[-1].split(",")[:4])]) + "\n")


def damage_header_only(run):
    (run / "results.csv").write_text((run / "results.csv").read_text().splitlines()[0] + "\n")


def damage_meta(value):
    def damage(run):
        (run / "meta.json").write_text(value)
    return damage


def damage_not_utf8(run):
    (run / "results.csv").write_bytes((run / "results.csv").read_bytes().replace(b"bench", b"b\xffnch", 1))


def damage_killed(run):
    meta = json.loads((run / "meta.json").read_text())
    (run / "meta.json").write_text(json.dumps({**meta, "complete": False}))


DAMAGE = [
    (damage_truncate, "cut short"),
    (damage_cut_at_a_field, "fields instead of 10"),
    (damage_header_only, "no rows"),
    (damage_meta("null"), "expected a JSON object, found NoneType"),
    (damage_meta("[1, 2]"), "expected a JSON object, found list"),
    (damage_meta('{"run_id": '), "not valid JSON"),
    (damage_not_utf8, "can't decode byte 0xff"),
    (damage_killed, "incomplete: it never finished"),
]


@pytest.mark.parametrize("damage, words", DAMAGE, ids=[d.__name__ if hasattr(d, "__name__") else w for d, w in DAMAGE])
@pytest.mark.parametrize("side", ["BASE", "CURRENT"])
def test_compare_refuses_a_damaged_side_with_exit_2_naming_it(tmp_path, capsys, damage, words, side):
    base, current = good(tmp_path / "base"), good(tmp_path / "current")
    damage(base if side == "BASE" else current)
    code = cli.main(["compare", str(base), str(current), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert words in err and str(base if side == "BASE" else current) in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("damage, words", [d for d in DAMAGE if d[0] is not damage_killed],
                         ids=[w for d, w in DAMAGE if d is not damage_killed])
def test_history_skips_a_damaged_run_with_one_line_and_goes_on(tmp_path, capsys, damage, words):
    results = tmp_path / "results"
    for i in range(6):
        write_run(results / f"run{i}", {("n=1", "time_ms"): noisy(10, 5, 0.02, i)}, started=f"2026-01-0{i + 1}T00:00:00")
    damage(results / "run3")
    code = cli.main(["history", "--results", str(results), "--fingerprint", MACHINE["fingerprint"],
                     "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    if damage is damage_header_only:  # readable, just empty: nothing to skip
        assert code == 0, err
        return
    assert code == 0, err
    skipped = [line for line in err.splitlines() if "skipped" in line]
    assert len(skipped) == 1 and "run3" in skipped[0] and words in skipped[0]
    assert (tmp_path / "out" / "history.md").exists()


def test_report_renders_the_good_runs_and_skips_the_damaged_one(tmp_path, capsys):
    first, broken, last = good(tmp_path / "a"), good(tmp_path / "b"), good(tmp_path / "c")
    damage_meta("null")(broken)
    code = cli.main(["report", str(first), str(broken), str(last)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out.count("report: ") == 2
    assert [line for line in captured.err.splitlines() if line] == [
        f"stallbench: skipped: {broken / 'meta.json'}: damaged run: expected a JSON object, found NoneType"]
