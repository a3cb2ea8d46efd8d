"""Which attack an entry gets when several were measured, and what a flat curve says when no attack
proved anything: an attack that got slow or hung outranks any flat one; an entry no attack generator
could read, or whose analyser and measured attacks disagree, reads "uncertain", never "linear"."""
from stallbench_lib.parameters import Params
from stallbench_lib.families.regex import attacks, patterns, worst_attack
from stallbench_lib.families.regex.curves import curves
from stallbench_lib.families.regex.summary import risk_row, short_verdict, engine_verdicts
from stallbench_lib.tidy import Row

SLOW_MS = attacks.PROBE["slow_ms"]
ENTRY = patterns.parse('[[pattern]]\nname = "ssri"\nregex = "^([a-z0-9]+)-([^?]+)([?\\\\S*]*)$"\nsource = "t"\n',
                       "test")[0]


def candidate(shape, points, over=None, pump="a"):
    return {"shape": shape, "pumps": [{"before": "sha512-", "pump": pump}], "suffix": "\n?", "points": points,
            "over": over}


# ssri 8.0.0 (measured here on V8): recheck's retry found an exponential attack whose match outlasted
# the probe's 1.5 s at 32 pumped bytes (two points before it); our own shapes stayed flat with four
# readable points. The flat one used to win on readability, and the regex read linear.
HUNG = candidate("recheck with raised limits (exponential)", [[8, 0.05], [16, 9.0]], over=32, pump="\t")
FLAT = [candidate("repeat", [[8, 0.001], [16, 0.001], [32, 0.0012], [64, 0.0011]]),
        candidate("nested quantifier", [[8, 0.002], [16, 0.002], [32, 0.0021], [64, 0.0019], [128, 0.002]])]


def test_an_attack_that_hung_outranks_every_flat_one_however_readable():
    for order in ([HUNG, *FLAT], [*FLAT, HUNG], [FLAT[0], HUNG, FLAT[1]]):
        chosen = worst_attack.worst(order, SLOW_MS)
        assert chosen.shape == HUNG["shape"] and chosen.expect() == "exponential"
    # The study measures below where it hung: the probe's lengths, more between the last fast one and
    # the stop, the stop, and beyond.
    entry = worst_attack.as_pattern(ENTRY, worst_attack.worst([*FLAT, HUNG], SLOW_MS), "measured", SLOW_MS)
    pumped = [n - entry.fixed for n in entry.lengths_for(False)]
    assert {8, 16, 32, 64} <= set(pumped) and len([n for n in pumped if 16 < n < 32]) >= 3


def test_the_one_that_got_slow_first_wins_then_the_steepest_rise():
    slow_late = candidate("late", [[8, 0.01], [64, 25.0]])
    slow_early = candidate("early", [[8, 0.01], [16, 30.0]])
    rising = candidate("rising", [[8, 0.01], [64, 5.0]])
    assert worst_attack.worst([slow_late, rising, slow_early], SLOW_MS).shape == "early"
    assert worst_attack.worst([FLAT[0], rising], SLOW_MS).shape == "rising"


def test_rounds_of_the_pump_in_the_text_before_it_are_pumped_and_ranked_as_such():
    """recheck's attack on ^(?:a{2,40})+$ put 40 a's before a pump of 80 a's, which hung at its first
    round: pumped by `a` (finer), its study still started past those 40 a's, had no length short enough
    to finish, and the pattern read `timeout` in a run where it was chosen and exponential in one where
    ours was. Those 40 a's are pumped, from nothing: the study's lengths go below them; and attacks are
    ranked by the whole input's length at which they got slow."""
    hung = {"shape": "recheck with raised limits (exponential)", "pumps": [{"before": "a" * 40, "pump": "a" * 80}],
            "suffix": "\x00", "points": [], "over": 80}
    entry = worst_attack.as_pattern(ENTRY, worst_attack.Measured.from_reply(hung), "measured", SLOW_MS)
    assert [(p.before, p.pump) for p in entry.pumps] == [("", "a")]
    pumped = [n - entry.fixed for n in entry.lengths_for(False)]
    assert min(pumped) <= 16 and max(n for n in pumped if n < 65_536) >= 120
    # Nothing was fast: the lengths between span the climb from the first rung (node@26 timed out past
    # 42 a's, which lengths only between 64 and 128 never reached).
    assert len([n for n in pumped if 8 < n < 64 and n not in worst_attack.LADDER]) >= 3
    padded = {"shape": "padded", "pumps": [{"before": "a" * 40, "pump": "a"}], "suffix": "\x00",
              "points": [[8, 2000.0]], "over": None}
    ours = {"shape": "nested quantifier", "pumps": [{"before": "", "pump": "a"}], "suffix": "!",
            "points": [[8, 0.01], [16, 0.5], [32, 800.0]], "over": None}
    measured = worst_attack.Measured.from_reply(padded)
    assert measured.pumps == [{"before": "", "pump": "a"}] and measured.points == [(48, 2000.0)]
    assert worst_attack.worst([padded, ours], SLOW_MS).shape == "nested quantifier"  # slow at 32 a's, not 48
    entry = worst_attack.as_pattern(ENTRY, measured, "measured", SLOW_MS)
    assert entry.pumps[0].before == "" and min(entry.lengths_for(False)) - entry.fixed <= 16
    # A text before the pump that is not made of it stays as it is.
    kept = worst_attack.Measured.from_reply(candidate("kept", [[8, 1.0]]))
    assert kept.pumps == [{"before": "sha512-", "pump": "a"}] and kept.points == [(8, 1.0)]


def uncertain_result(diagnostics, candidates, retry=None):
    return {"diagnostics": diagnostics, "retry": retry, "uncertain": "recheck's attack came from its fuzzer alone",
            "candidates": candidates}


VULNERABLE = {"status": "vulnerable", "checker": "fuzz", "complexity": {"type": "exponential", "summary": "exponential"},
              "attack": {"pumps": [{"prefix": "sha512-", "pump": "\t", "bias": 0}], "suffix": "\n?"}}


def test_an_analyser_that_says_vulnerable_against_flat_measurements_is_uncertain_not_linear():
    found = attacks._resolved(ENTRY, uncertain_result(VULNERABLE, FLAT), "recheck 4.5.0 (native)")
    assert patterns.doubt_of(found.attack) == patterns.ATTACKS_DISAGREE
    assert found.pumps[0].pump == "\t"  # recheck's own attack, still timed
    grew = attacks._resolved(ENTRY, uncertain_result(VULNERABLE, [*FLAT, HUNG]), "recheck 4.5.0 (native)")
    assert patterns.doubt_of(grew.attack) is None and "worst of 3 attacks measured" in grew.attack


def test_a_regex_no_generator_could_read_is_uncertain_no_attack():
    unreadable = {"status": "unknown", "checker": None, "complexity": None, "attack": None,
                  "error": {"kind": "invalid", "message": "parsing failed"}}
    found = attacks._resolved(ENTRY, uncertain_result(unreadable, []), "recheck 4.5.0 (native)")
    assert patterns.doubt_of(found.attack) == patterns.NO_ATTACK and found.attack.endswith(patterns.RANDOM_ATTACK)
    safe = attacks._from_recheck(ENTRY, {"status": "safe"}, "recheck 4.5.0 (native): safe")
    assert patterns.doubt_of(safe.attack) is None and safe.expect == "linear"


def rows(engine, points):
    return [Row("r", "regex", "match", Params({"engine": engine, "length": n, "pattern": "p"}), 0, "match_ms", t, "ms", "ok", "")
            for n, t in points]


def test_a_flat_curve_of_an_entry_without_an_attack_reads_uncertain():
    flat = [(n, 0.001) for n in (16, 128, 1024, 8192, 65536)]
    doubts = patterns.doubts({"p": f"recheck: unknown (invalid); {patterns.NO_ATTACK}; {patterns.RANDOM_ATTACK}"})
    found = curves(rows("re2", flat) + rows("ruby", [(n, 1e-6 * n * n) for n, _ in flat]), doubts=doubts)
    assert found[("p", "re2")].verdict == patterns.NO_ATTACK == short_verdict(found[("p", "re2")])
    assert found[("p", "ruby")].verdict == "polynomial"  # growth found on a random input still stands
    row = risk_row("p", engine_verdicts(found, "p", ["re2", "ruby"]))
    assert not row["linear"] and row["other"] == [f"re2 {patterns.NO_ATTACK}"]
    assert curves(rows("re2", flat))[("p", "re2")].verdict == "linear"  # with an attack, flat is linear


def test_an_attack_slow_at_its_first_round_is_pumped_by_the_shorter_text_its_pump_repeats():
    # Tika 1.28.3's header regex (CVE-2022-33879) on Java: recheck's fuzzer pumps ten zeros, and one
    # round already took 188 ms; the study had one length below 100 ms to read (none) and the verdict
    # was `unknown (1 points)`. Pumped one zero at a time, the same inputs and those between them.
    tika = {"shape": "recheck's fuzzer", "pumps": [{"before": "0.000000", "pump": "0" * 10}], "suffix": "\0",
            "points": [[10, 188.0]], "over": None}
    entry = worst_attack.as_pattern(ENTRY, worst_attack.worst([tika], SLOW_MS), "measured", SLOW_MS)
    assert [p.pump for p in entry.pumps] == ["0"]
    assert {8, 9, 10, 11, 12} <= {n - entry.fixed for n in entry.lengths_for(False)}
    # Pumps that repeat their texts a different number of times keep their rounds (their rates are
    # the attack), and so does an attack whose first round was fast.
    uneven = {**tika, "pumps": [{"before": "", "pump": "ab" * 3}, {"before": "-", "pump": "c" * 2}]}
    assert [p.pump for p in worst_attack.as_pattern(ENTRY, worst_attack.worst([uneven], SLOW_MS), "m",
                                                    SLOW_MS).pumps] == ["ab" * 3, "cc"]
    even = {**tika, "pumps": [{"before": "", "pump": "ab" * 4}, {"before": "-", "pump": "c" * 2}],
            "points": [[10, 300.0]]}
    assert [p.pump for p in worst_attack.as_pattern(ENTRY, worst_attack.worst([even], SLOW_MS), "m",
                                                    SLOW_MS).pumps] == ["abab", "c"]
    late = {**tika, "points": [[10, 0.01], [20, 0.5], [30, 40.0]]}
    assert [p.pump for p in worst_attack.as_pattern(ENTRY, worst_attack.worst([late], SLOW_MS), "m",
                                                    SLOW_MS).pumps] == ["0" * 10]
