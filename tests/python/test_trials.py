"""calibrate --trials: the chosen ways of judging, and how their counts are reported."""
import pytest

from stallbench_lib import cli
from stallbench_lib.tracking.trials import Trials, Verdict, markdown


def _verdict(method, kind, exit_code, caught):
    return Verdict(method, kind, exit_code, ["instructions"] if exit_code else [], caught,
                   {"instructions": 5.0} if kind == "A/B" else {}, {"instructions": 0.0}, 90.0, 4.0)


def test_the_report_counts_only_the_chosen_methods():
    trials = Trials("pool/saturation", 5, ["calibrate"], ("paired",),
                    [_verdict("paired", "A/A", 0, False), _verdict("paired", "A/B", 1, True),
                     _verdict("paired", "A/A", 1, False), _verdict("paired", "A/B", 1, True)])
    text = markdown(trials)
    assert "2 trials of each kind" in text
    assert "| paired | 1 of 2 | 0 of 2 | 2 of 2 | 2 of 2 |" in text  # right, inconclusive, caught, exit 1
    assert "| duet |" not in text and "| sequential |" not in text and "sequential detectable" not in text


@pytest.mark.parametrize("methods", ["paired,bogus", ""])
def test_an_unknown_method_is_one_line(tmp_path, capsys, methods):
    code = cli.main(["calibrate", "--no-build", "--trials", "2", "--inject", "pool/saturation:5",
                     "--methods", methods, "--out", str(tmp_path / "cal")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "valid methods are paired, duet, sequential" in err
    assert not (tmp_path / "cal").exists()
