"""`stallbench regex` end to end on small catalogues: a crashing cell becomes a row and the run
goes on, a refused pattern is a `rejected` row with the engine's message, escalation stops at the
first failed length and records it, engines that disagree are reported, bad input is one line."""
import csv
import json

import pytest

from conftest import BUILD, runs_in, stallbench, the_new_run
from stallbench_lib import runtimes
from stallbench_lib.tidy import read_csv

COUPON = """[[pattern]]
name = "coupon-code"
regex = '^([A-Z0-9]+-?)+$'
safe = '^[A-Z0-9]+(-[A-Z0-9]+)*$'
pump = "B"
suffix = "!"
source = "seed 000"
"""


def catalogue(tmp_path, text: str):
    path = tmp_path / "patterns.toml"
    path.write_text(text)
    return path


def entry(name, regex, pump, suffix="", lengths=None, safe=None):
    text = f"[[pattern]]\nname = \"{name}\"\nregex = '{regex}'\npump = \"{pump}\"\nsuffix = \"{suffix}\"\nsource = \"test\"\n"
    if safe:
        text += f"safe = '{safe}'\n"
    if lengths:
        text += f"lengths = {lengths}\n"
    return text


def regex_run(tmp_path, patterns, *args, report=False):
    out = tmp_path / "out"
    before = runs_in(out)
    result = stallbench("regex", "--no-build", "--no-throughput", "--patterns", str(patterns), "--out", str(out),
                        "--node", "none", *(() if report else ("--no-report",)), *args)
    return result, the_new_run(out, before)


def cells(run_dir):
    """(engine, pattern, length) -> the match_ms row."""
    return {(runtimes.label(r.params, "engine"), r.params["pattern"], int(r.params["length"])): r
            for r in read_csv(run_dir / "results.csv") if r.metric == "match_ms"}


def test_std_regex_stack_overflow_is_a_crashed_row_and_the_run_goes_on(tmp_path):
    patterns = catalogue(tmp_path, entry("alternation-star", "(a|b)*", "ab"))
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "std,re2", "--lengths", "1000,200000",
                                "--budget-ms", "5000")
    assert result.returncode == 0, result.stderr
    found = cells(run_dir)
    assert found[("std", "alternation-star", 1000)].status == "ok"
    crashed = found[("std", "alternation-star", 200000)]
    assert crashed.status == "crashed" and "SIGSEGV" in crashed.detail
    assert found[("re2", "alternation-star", 200000)].status == "ok"  # the cell after the crash ran
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["complete"] is True
    assert [(c["engine"], c["status"], c["at_length"]) for c in meta["regex"]["censoring"]] == [("std", "crashed", 200000)]


def test_pattern_invalid_for_one_engine_is_a_rejected_row_with_its_message(tmp_path):
    patterns = catalogue(tmp_path, entry("backreference", r"(a)\1x", "a", lengths=[4, 8]))
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "re2,std")
    assert result.returncode == 0, result.stderr
    found = cells(run_dir)
    rejected = found[("re2", "backreference", 4)]
    assert rejected.status == "rejected" and "invalid escape sequence: \\1" in rejected.detail
    assert ("re2", "backreference", 8) not in found  # not run again at a longer length
    assert found[("std", "backreference", 8)].status == "ok"


def test_escalation_stops_at_the_budget_and_the_report_shows_it(tmp_path):
    # The rewrite has lengths of its own (a linear pattern wants a wide range).
    patterns = catalogue(tmp_path, entry("nested-plus", "^(a+)+$", "a", "!", [10, 14, 18, 40, 44], safe="^a+$")
                         + "safe_lengths = [10, 40, 44]\n")
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "std,re2", "--budget-ms", "400", report=True)
    assert result.returncode == 0, result.stderr
    found = cells(run_dir)
    assert found[("std", "nested-plus", 40)].status == "timeout"
    assert ("std", "nested-plus", 44) not in found
    assert found[("re2", "nested-plus", 44)].status == "ok"
    assert all(found[("std", "nested-plus.safe", n)].status == "ok" for n in (10, 40, 44))
    meta = json.loads((run_dir / "meta.json").read_text())
    (censored,) = meta["regex"]["censoring"]
    assert (censored["engine"], censored["at_length"], censored["skipped_lengths"]) == ("std", 40, [44])
    assert meta["cells"]["skipped"] == 1
    with open(run_dir / "classification.csv") as f:
        verdicts = {(r["pattern"], r["engine"]): r for r in csv.DictReader(f)}
    assert verdicts[("nested-plus", "re2")]["verdict"] == "linear"
    assert verdicts[("nested-plus", "std")]["stop_status"] == "timeout"
    report = (run_dir / "report" / "report.md").read_text()
    assert "Catastrophic backtracking" in report and "regex-curves.png" in report
    assert (run_dir / "report" / "regex-curves.svg").exists()
    # Every engine gives the same answer on every attack input; nothing disagreed.
    assert "DISAGREEMENT" not in result.stderr


def test_the_seeds_pair_exponential_for_std_flat_for_re2_and_the_rewrite_counterexample(tmp_path):
    # Lengths up to 24 (std::regex: about 0.3 s): a range wide enough that a noisy point on a shared
    # machine cannot make the growth look polynomial.
    patterns = catalogue(tmp_path, COUPON + "lengths = [14, 16, 18, 20, 22, 24]\n")
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "std,re2", "--budget-ms", "3000")
    assert result.returncode == 0, result.stderr
    with open(run_dir / "classification.csv") as f:
        verdicts = {(r["pattern"], r["engine"]): r["verdict"] for r in csv.DictReader(f)}
    assert verdicts[("coupon-code", "std")] == "exponential"
    assert verdicts[("coupon-code", "re2")] == "linear"
    assert verdicts[("coupon-code.safe", "std")] == "linear"
    # The seed's rewrite rejects a trailing hyphen that the original accepts.
    assert "safe rewrite of coupon-code differs on" in result.stderr
    meta = json.loads((run_dir / "meta.json").read_text())
    inputs = [c["input"] for c in meta["regex"]["correctness"]["counterexamples"]]
    assert any(i.endswith("-'") for i in inputs), inputs


def test_engines_that_disagree_are_reported_loudly_in_one_line(tmp_path):
    # \Z is an end anchor for PCRE2 and a literal Z for ECMAScript: a dialect difference, on the
    # attack input and on many sample inputs; no reference and no majority can decide it.
    patterns = catalogue(tmp_path, entry("dialect", r"a\Z", "a", lengths=[3]))
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "std,pcre2")
    assert result.returncode == 1
    (line,) = [line for line in result.stderr.splitlines() if "DISAGREEMENT" in line]
    assert line.startswith("DISAGREEMENT on dialect, no reference or majority to decide: ")
    assert line.endswith(": pcre2 match, std no match")
    with open(run_dir / "disagreements.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) > 1 and f"{len(rows):,} inputs on which engines disagreed" in result.stderr
    attack = next(r for r in rows if r["attack_length"] == "3")
    assert (attack["input"], attack["answers"], attack["right_answer"]) == ("'aaa'", "pcre2=1;std=0", "")
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["regex"]["correctness"]["disagreements"] == len(rows)


def test_node_is_optional(tmp_path):
    patterns = catalogue(tmp_path, entry("plain", "^a+$", "a", lengths=[8]))
    out = tmp_path / "out"
    refused = stallbench("regex", "--no-build", "--patterns", str(patterns), "--engines", "node", "--out", str(out),
                         "--node", "none")
    assert refused.returncode == 2 and "'node' is not available" in refused.stderr and "--node" in refused.stderr
    assert not out.exists()
    result = stallbench("regex", "--no-build", "--no-report", "--no-throughput", "--patterns", str(patterns),
                        "--out", str(out), "--node", "none", "--engines", "std,re2")
    assert result.returncode == 0, result.stderr
    (run_dir,) = out.iterdir()
    engines = {k[0] for k in cells(run_dir)}
    assert engines == {"std", "re2"}


@pytest.mark.parametrize("text, args, words", [
    ("[[pattern]\n", [], "invalid TOML"),
    (entry("x", "a", "a").replace('source = "test"\n', ""), [], "pattern 1 'x': missing field 'source'"),
    (entry("x", "a", ""), [], "pattern 1 'x': 'pump' is empty"),
    (entry("x", "a", "a") + entry("broken", "(unclosed", "a"), [], "pattern 'broken': regex '(unclosed' is invalid for every engine"),
    (entry("x", "a", "a"), ["--engines", "perl"], "'perl' is not available (valid: "),
    (entry("x", "a", "a") + 'reference = "perl"\n', [], "pattern 1 'x': reference 'perl' is not a regex engine (valid: "),
    (entry("x", "a", "a"), ["--lengths", "0"], "out of range"),
    (entry("x", "a", "a"), ["--lengths", "8,x"], "out of range"),
    (entry("x", "a", "a"), ["--budget-ms", "5"], "valid values are 10-600000"),
    (entry("x", "a", "a"), ["--node", "17"], "'17' is not a pinned Node line"),
    (entry("x", "a", "a"), ["--flags", "i"], "--flags applies to --pattern regexes"),
    ("format = 3\n" + entry("x", "a", "a"), [], "format 3 is not one this stallbench reads (valid: 1, 2"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, text, args, words):
    patterns = catalogue(tmp_path, text)
    out = tmp_path / "out"
    result = stallbench("regex", "--no-build", "--patterns", str(patterns), "--out", str(out), "--node", "none", *args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr
    if not args:
        assert str(patterns) in lines[0]
    assert not out.exists()


def test_a_catalogue_written_before_the_escapes_runs_as_it_was_written(tmp_path):
    # No `format`: the pump's backslashes are backslashes, for the orchestrator and the bench alike
    # (format 2 would refuse \[ as an unknown escape); the attack input (whole pumps: 5 and 10
    # characters) is what the regex matches.
    patterns = catalogue(tmp_path, r"""[[pattern]]
name = "brackets"
regex = '^(\\\[\\\]\()+$'
pump = '\[\]('
lengths = [5, 10]
source = "test"
""")
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "std,re2")
    assert result.returncode == 0, result.stderr
    matched = {(runtimes.label(r.params, "engine"), r.params["length"]): r.value
               for r in read_csv(run_dir / "results.csv") if r.metric == "matched"}
    assert matched == {(e, n): 1 for e in ("std", "re2") for n in ("5", "10")}, matched


def test_bench_binary_refuses_a_bad_catalogue_itself(tmp_path):
    import subprocess

    patterns = catalogue(tmp_path, "[[pattern]\n")
    result = subprocess.run([str(BUILD / "benches" / "bench_regex"), "--stallbench-describe",
                             f"--stallbench-input=patterns={patterns}"], capture_output=True, text=True)
    assert result.returncode == 2 and "invalid TOML" in result.stderr


def test_a_flat_then_quadratic_curve_is_refined_inside_its_turn_and_reads_as_degree_two(tmp_path):
    # PCRE2 skips a match whose required last character is absent while the input is shorter than
    # its bound (5,000 bytes in 10.42), then backtracks: ^\d+\d+x is flat up to 4,097, quadratic
    # after. Two lengths past the turn are not enough to read a degree: the run measures inside it.
    patterns = catalogue(tmp_path, entry("turn", r"^\d+\d+x", "0", lengths=[1025, 2049, 4097, 8193, 32769]))
    result, run_dir = regex_run(tmp_path, patterns, "--engines", "pcre2", "--budget-ms", "3000")
    assert result.returncode == 0, result.stderr
    with open(run_dir / "classification.csv") as f:
        (turn,) = [r for r in csv.DictReader(f) if r["pattern"] == "turn"]
    assert turn["verdict"] == "polynomial" and 1.5 < float(turn["degree"]) < 2.6, turn
    assert turn["growth_from_length"] == "4097"
    meta = json.loads((run_dir / "meta.json").read_text())
    inside = sorted(r["length"] for r in meta["regex"]["refined"] if r["why"] == "inside the turn")
    assert inside and all(4097 < n < 32769 for n in inside)
