"""The pattern catalogue's loader, the sample inputs, and the agreement checks, without a build."""
import pytest

from stallbench_lib.errors import UsageError
from stallbench_lib.redos import agreement, patterns, samples
from stallbench_lib.redos.checker import EngineAnswers

ENTRY = 'name = "x"\nregex = "^(a+)+$"\npump = "a"\nsuffix = "!"\nsource = "test"\n'


def load(tmp_path, text):
    path = tmp_path / "p.toml"
    path.write_text(text)
    return patterns.load(path)


def test_shipped_catalogue_has_the_seed_pair_and_classic_shapes():
    loaded = {p.name: p for p in patterns.load(patterns.SHIPPED)}
    coupon = loaded["coupon-code"]
    assert (coupon.regex, coupon.safe) == ("^([A-Z0-9]+-?)+$", "^[A-Z0-9]+(-[A-Z0-9]+)*$")
    # the seed's "BOOKSTORE2026BOOKSTORE2026BOOK".slice(0, length - 1) + "!"
    assert coupon.attack_input(20) == "BOOKSTORE2026BOOKSTORE2026BOOK"[:19] + "!"
    assert {"nested-plus", "overlapping-alternation", "dot-star-equals", "trailing-whitespace",
            "repeated-dot-star", "alternation-star"} <= set(loaded)
    assert loaded["dot-star-equals"].regex == ".*.*=.*" and loaded["trailing-whitespace"].regex == "\\s+$"
    for p in loaded.values():
        assert p.source and p.analysis and p.expect
        assert p.safe, f"{p.name} has no safe rewrite"


def test_defaults(tmp_path):
    (p,) = load(tmp_path, "[[pattern]]\n" + ENTRY)
    assert p.prefix == "" and p.safe is None and p.lengths == patterns.DEFAULT_LENGTHS
    assert [v.name for v in p.variants()] == ["x"]


@pytest.mark.parametrize("text, words", [
    ("[[pattern]\n", "invalid TOML"),
    ("[[pattern]]\n" + ENTRY.replace('pump = "a"\n', ""), "missing field 'pump'"),
    ("[[pattern]]\n" + ENTRY.replace('pump = "a"', 'pump = ""'), "'pump' is empty"),
    ("[[pattern]]\n" + ENTRY + "pumps = \"a\"\n", "unknown field 'pumps'"),
    ("[[pattern]]\n" + ENTRY + "expect = \"cubic\"\n", "valid: linear, polynomial, exponential"),
    ("[[pattern]]\n" + ENTRY + "lengths = [4, 2]\n", "must be increasing"),
    ("[[pattern]]\n" + ENTRY + "lengths = [0]\n", "out of range"),
    ("[[pattern]]\n" + ENTRY.replace('name = "x"', 'name = "a b"'), "may use only letters"),
    ("[[pattern]]\n" + ENTRY + "[[pattern]]\n" + ENTRY, "used twice"),
    ("[[pattern]]\n" + ENTRY.replace('suffix = "!"', 'suffix = "\\n"'), "without line breaks"),
    ("title = 1\n", "unknown top-level key"),
    ("", "no [[pattern]] entries"),
])
def test_bad_catalogues_name_file_and_entry(tmp_path, text, words):
    with pytest.raises(UsageError) as failure:
        load(tmp_path, text)
    message = str(failure.value)
    assert words in message and str(tmp_path / "p.toml") in message and "\n" not in message


def test_missing_file_is_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot read"):
        patterns.load(tmp_path / "none.toml")


def test_samples_are_deterministic_over_the_alphabet():
    coupon = next(p for p in patterns.load(patterns.SHIPPED) if p.name == "coupon-code")
    first, again = samples.sample_inputs(coupon), samples.sample_inputs(coupon)
    assert first == again and len(first) == len(set(first)) > 300
    letters = set(samples.alphabet(coupon))
    assert {"-", "!", "B", "2"} <= letters and "\n" not in letters
    assert all(set(s) <= letters for s in first)
    assert coupon.attack_input(16) in first


def test_counterexample_is_the_shortest_input_where_rewrite_and_original_differ():
    inputs = ["AB-C", "A-", "AB", "ABC-"]
    original = {"re2": EngineAnswers(None, "1111"), "std": EngineAnswers(None, "1111")}
    safe = {"re2": EngineAnswers(None, "1010"), "std": EngineAnswers(None, "1g10")}
    found = agreement.sample_counterexamples("coupon-code", inputs, original, safe)
    assert [c.input for c in found] == ["'A-'", "'ABC-'"]
    assert found[0].engines == ["re2"]          # std was guarded on it: not a counterexample
    assert found[1].engines == ["re2", "std"]
    assert (found[0].original, found[0].safe) == (True, False)


def test_disagreement_between_engines_is_found_and_rejections_ignored():
    inputs = ["aa", "ab"]
    answers = {"re2": EngineAnswers(None, "10"), "std": EngineAnswers(None, "11"),
               "hyperscan": EngineAnswers("unsupported", "")}
    (found,) = agreement.sample_disagreements("p", inputs, answers)
    assert found.input == "'ab'" and found.answers == {"re2": False, "std": True}
