"""The pattern catalogue's loader (fields, escapes, limits, bad files), the catalogue file written
back, the sample inputs, and the agreement checks and their reference, without a build."""
import pytest

from stallbench_lib.errors import UsageError
from stallbench_lib.families.regex import (
    agreement, catalogue_file, inputs, patterns, regex_syntax, samples, upgrade)
from stallbench_lib.families.regex.checker import EngineAnswers
from stallbench_lib.families.regex.engines import Engines

ENTRY = 'name = "x"\nregex = "^(a+)+$"\npump = "a"\nsuffix = "!"\nsource = "test"\n'


def load(tmp_path, text):
    path = tmp_path / "p.toml"
    path.write_text(text)
    return patterns.load(path)


def test_shipped_catalogue_has_the_seed_pair_and_classic_shapes():
    loaded = {p.name: p for p in patterns.load(patterns.SHIPPED)}
    coupon = loaded["coupon-code"]
    assert (coupon.regex, coupon.safe) == ("^([A-Z0-9]+-?)+$", "^[A-Z0-9]+(-[A-Z0-9]+)*$")
    # the seed's input with a one-character pump: the run grid's 20, 24 and 28 are whole pumps
    assert coupon.attack_input(20) == "B" * 19 + "!"
    assert {"nested-plus", "overlapping-alternation", "dot-star-equals", "trailing-whitespace",
            "repeated-dot-star", "alternation-star"} <= set(loaded)
    assert loaded["dot-star-equals"].regex == ".*.*=.*" and loaded["trailing-whitespace"].regex == "\\s+$"
    for p in loaded.values():
        assert p.source and p.analysis and p.expect
        assert p.safe or p.expect == "linear", f"{p.name} has no safe rewrite"
    # Real advisories whose attack recheck finds, and their linear control.
    assert not loaded["color-string-hwb"].pumps and loaded["ua-parser-barnes-noble"].flags == "i"
    assert loaded["color-string-rgba"].expect == "linear" and loaded["color-string-rgba"].pumps


def test_defaults(tmp_path):
    (p,) = load(tmp_path, "[[pattern]]\n" + ENTRY)
    assert p.prefix == "" and p.safe is None and p.flags == "" and p.attack == patterns.HAND_WRITTEN
    assert [v.name for v in p.variants()] == ["x"]
    # Default lengths start above the fixed parts and span more than two decades of pumped bytes.
    assert p.lengths_for(False) == [1 + n for n in patterns.PUMPED_DEFAULT]
    (behind,) = load(tmp_path, "[[pattern]]\n" + ENTRY + 'prefix = "0123456789"\nexpect = "exponential"\nsafe = "a"\n')
    assert behind.lengths_for(False)[0] == 11 + 8 and behind.lengths_for(True)[0] == 11 + 8
    assert behind.lengths_for(False)[:3] == [11 + 8, 11 + 12, 11 + 16]  # an exponential climbs in small steps
    assert behind.lengths_for(True)[-1] / behind.lengths_for(True)[0] > 100
    (unanalysed,) = load(tmp_path, '[[pattern]]\nname = "y"\nregex = "a+"\nsource = "s"\n')
    assert unanalysed.pumps == () and unanalysed.attack == ""


def test_flags_escapes_and_several_pumps(tmp_path):
    (p,) = load(tmp_path, "format = 2\n[[pattern]]\n" + ENTRY.replace('pump = "a"\n', "") + "flags = \"ui\"\n"
                "prefix = '\\x1b['\npumps = [{before = '\\u{e9}', pump = \"ab\"}, {pump = '\\\\'}]\n")
    assert p.flags == "iu" and p.prefix == "\x1b[" and p.pumps[0].before == "\xc3\xa9"
    assert p.pumps[1].pump == "\\" and p.fixed == 2 + 2 + 1
    assert p.attack_input(8) == "\x1b[\xc3\xa9ab\\!" and p.period == 3
    assert p.attack_input(11) == "\x1b[\xc3\xa9abab\\\\!"
    with pytest.raises(ValueError, match="whole pumps"):
        p.attack_input(9)


def test_catalogue_file_round_trips(tmp_path):
    (p,) = load(tmp_path, "format = 2\n[[pattern]]\n" + ENTRY + "flags = \"s\"\nprefix = '\\x00\\xff\"'\nlengths = [9, 20]\n")
    shipped = patterns.load(patterns.SHIPPED)
    for catalogue in (shipped, [p]):
        assert patterns.parse(catalogue_file.to_toml(catalogue, "a note"), "written") == catalogue


def test_inputs_decode_and_encode():
    assert inputs.decode("a\\x41\\u{1F600}\\\\") == "aA" + "\U0001F600".encode().decode("latin-1") + "\\"
    assert inputs.encode("a\x00\\\xff") == "a\\x00\\\\\\xff"
    assert inputs.decode(inputs.encode("\x1b[é\n")) == "\x1b[é\n"
    assert inputs.to_bytes("\udc00") == "\xed\xb0\x80"  # a lone surrogate a regex's class named (a real tree's)
    for bad in ("\\q", "\\x1", "\\u{110000}", "\\u{d800}"):
        with pytest.raises(ValueError):
            inputs.decode(bad)


@pytest.mark.parametrize("text, words", [
    ("[[pattern]\n", "invalid TOML"),
    ("[[pattern]]\n" + ENTRY.replace('regex = "^(a+)+$"\n', ""), "missing field 'regex'"),
    ("[[pattern]]\n" + ENTRY.replace('pump = "a"', 'pump = ""'), "'pump' is empty"),
    ("[[pattern]]\n" + ENTRY + "pumps = []\n", "give 'pump' or 'pumps', not both"),
    ("[[pattern]]\n" + ENTRY + "flags = \"q\"\n", "flags 'q' is not valid (valid: any of i, m, s, u, g, y"),
    ("format = 2\n[[pattern]]\n" + ENTRY.replace('pump = "a"', "pump = '\\q'"), "'pump': unknown escape at character 1"),
    ("format = 2\n[[pattern]]\n" + ENTRY + "flags = \"u\"\nprefix = '\\xff'\n", "with the u flag, 'prefix' must be UTF-8"),
    ("format = 3\n[[pattern]]\n" + ENTRY, "format 3 is not one this stallbench reads (valid: 1, 2"),
    ("[[pattern]]\n" + ENTRY + f"prefix = \"{'p' * 2_000_000}\"\n", "hold 2,000,001 bytes (at most 4,096"),
    ("[[pattern]]\n" + ENTRY + "lengths = [8]\nprefix = \"0123456789\"\n", "8 is shorter than the prefix"),
    ("[[pattern]]\n" + ENTRY + "expect = \"cubic\"\n", "valid: linear, polynomial, exponential"),
    ("[[pattern]]\n" + ENTRY + "lengths = [4, 2]\n", "must be increasing"),
    ("[[pattern]]\n" + ENTRY + "lengths = [0]\n", "out of range"),
    ("[[pattern]]\n" + ENTRY.replace('name = "x"', 'name = "a b"'), "may use only letters"),
    ("[[pattern]]\n" + ENTRY + "[[pattern]]\n" + ENTRY, "used twice"),
    ("title = 1\n", "unknown top-level key"),
    ("", "no [[pattern]] entries"),
])
def test_bad_catalogues_name_file_and_entry(tmp_path, text, words):
    with pytest.raises(UsageError) as failure:
        load(tmp_path, text)
    message = str(failure.value)
    assert words in message and str(tmp_path / "p.toml") in message and "\n" not in message


OLD_PUMP = ENTRY.replace('pump = "a"', "pump = '\\[\\]('")  # written before the escapes arrived


def test_a_catalogue_without_a_format_reads_its_backslashes_as_written(tmp_path):
    (old,) = load(tmp_path, "[[pattern]]\n" + OLD_PUMP)
    assert old.pumps[0].pump == "\\[\\]("
    with pytest.raises(UsageError, match="'pump': unknown escape at character 1"):
        load(tmp_path, "format = 2\n[[pattern]]\n" + OLD_PUMP)


def test_upgrade_rewrites_an_old_catalogue_in_the_current_format_keeping_the_original(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("# my catalogue\n[[pattern]]\n" + OLD_PUMP)
    before = patterns.load(path)
    assert "rewritten in format 2" in upgrade.upgrade(path)
    assert patterns.load(path) == before and "\nformat = 2\n" in path.read_text()
    assert (tmp_path / "mine.toml.format1").read_text().startswith("# my catalogue")
    assert "already format 2" in upgrade.upgrade(path)


def test_missing_file_is_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot read"):
        patterns.load(tmp_path / "none.toml")


def test_a_catalogue_that_is_not_utf8_is_one_line_with_its_position(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"[[pattern]]\nname = \"caf\xe9\"\n")
    with pytest.raises(UsageError) as failure:
        patterns.load(path)
    assert str(failure.value) == (f"{path}: not UTF-8 text: byte 0xe9 at line 2, column 12 (offset 23); "
                                  "a catalogue is UTF-8 TOML")


def test_samples_are_deterministic_over_the_alphabet():
    coupon = next(p for p in patterns.load(patterns.SHIPPED) if p.name == "coupon-code")
    first, again = samples.sample_inputs(coupon), samples.sample_inputs(coupon)
    assert first == again and len(first) == len(set(first)) > 300
    letters = set(samples.alphabet(coupon))
    # Class ends and the characters just outside them: [A-Z0-9] gives A Z 0 9 and @ [ / :
    assert {"-", "!", "B", "A", "Z", "0", "9", "@", "[", "/", ":"} <= letters and "\n" not in letters
    assert all(set(s) <= letters for s in first)
    assert coupon.attack_input(16) in first


def test_the_alphabet_holds_escaped_metacharacters_and_both_patterns_literals(tmp_path):
    # minimatch's escaped braces: the alphabet once came out as `!:x{`, without the `}`.
    (p,) = load(tmp_path, "[[pattern]]\n" + ENTRY.replace('regex = "^(a+)+$"', "regex = '\\{([^{}]+)\\}x'")
                + "safe = '\\((?:\\d|%)\\)'\n")
    assert {"{", "}", "x", "(", ")", "%", "0", "9", "/", ":"} <= set(samples.alphabet(p))
    generated = ["{ab}x"]
    assert "{ab}x" in samples.sample_inputs(p, generated)


# Engines sharing an implementation vote once: what the bench's table says (engines.cc).
TABLE = Engines(tuple({"name": name, "implementation": implementation} for name, implementation in
                      (("boost", "boost"), ("std", "std"), ("pcre2", "pcre2"), ("pcre2-jit", "pcre2"), ("re2", "re2"),
                       ("node", "node"), ("node-linear", "node"))))


def test_wrong_answers_are_judged_against_the_reference_or_the_majority():
    d = agreement.Disagreement
    found = agreement.judge([d("p", "'1!'", {"boost": True, "std": False, "pcre2": False, "pcre2-jit": False,
                                             "re2": False}),
                             d("p", "'2!'", {"boost": True, "std": False}),               # a tie: unresolved
                             d("js", "'x'", {"node@26": False, "node-linear@26": False, "std": True, "re2": True,
                                             "boost": True})], {"p": None, "js": "node"}, TABLE)
    assert found.wrong["p"]["boost"]["by"] == "majority" and found.wrong["p"]["boost"]["input"] == "'1!'"
    assert [u["input"] for u in found.unresolved] == ["'2!'"]
    assert set(found.wrong["js"]) == {"std", "re2", "boost"} and found.wrong["js"]["std"]["by"] == "node"


def test_an_engine_of_the_reference_implementation_speaks_for_it_when_the_reference_gave_no_answer():
    # A scan: node@26 ran out of time on an input node-linear@26 answered; V8 is one semantics, so its
    # answer decides, and the linear engines that differ answered wrongly: no dispute, no exit 1.
    d = agreement.Disagreement
    found = agreement.judge([d("js", "'x'", {"node-linear@26": True, "re2": False, "std": True, "boost": False})],
                            {"js": "node"}, TABLE)
    assert not found.unresolved
    assert set(found.wrong["js"]) == {"re2", "boost"} and found.wrong["js"]["re2"]["by"] == "node"


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


@pytest.mark.parametrize("regex, nested", [
    ("^(a+)+$", True), ("(?:\\d*x)*", True), ("(a|b+){2,}", True), ("((a)+)+", True),
    ("^\\d+$", False), ("(a)+", False), ("[(a+)]+", False), ("(a+?)", False), ("(ab)*c+", False),
    ("\\(a+\\)+", False), ("(?:,\\s*(\\d+)\\s*)?", False),
])
def test_an_entry_that_says_nothing_gets_short_samples_only_with_a_repeat_inside_a_repeat(regex, nested):
    # The sample check's generated strings: short where an engine without a guard could take minutes
    # (a repeat inside a repeat), long enough elsewhere for a polynomial pattern's counterexample.
    assert samples.has_nested_repeat(regex) == nested


def test_a_catalogue_written_with_a_random_pump_reloads_under_the_u_flag():
    # A class naming lone surrogates: the random pump once held one, encoded as bytes no UTF-8 has,
    # and the run's own catalogue.toml was refused on reload ("with the u flag, 'pump' must be UTF-8").
    (p,) = patterns.parse("format = 2\n[[pattern]]\nname = \"s\"\nregex = '[\\\\uD800-\\\\uDBFF][\\\\uDC00-\\\\uDFFF]x+'\n"
                          "flags = \"u\"\nsource = \"test\"\n", "given")
    random_attack = patterns.with_attack(p, "", [patterns.Pump("", samples.random_pump(p))], "", "random input", None)
    assert inputs.is_utf8(random_attack.pumps[0].pump)
    assert patterns.parse(catalogue_file.to_toml([random_attack]), "written") == [random_attack]
    assert samples.as_bytes("a\ud800", True) == "a\xef\xbf\xbd"


def test_a_class_up_to_the_last_code_point_has_no_neighbour_above_it():
    # Python's regexes name [\U00010000-\U0010FFFF]: its upper end has no next character.
    named = regex_syntax.named_characters("[\U00010000-\U0010ffff]")
    assert named.characters() == {"\U00010000", "\U0010ffff"}  # U+FFFF below it is not printable
