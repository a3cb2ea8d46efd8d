"""Which attack an entry gets when several were measured, and what a flat curve says when no attack
proved anything: an attack that got slow or hung outranks any flat one; an entry no attack generator
could read, or whose analyser and measured attacks disagree, reads "uncertain", never "linear"."""
from stallbench_lib.redos import attacks, patterns, worst_attack
from stallbench_lib.redos.curves import curves
from stallbench_lib.redos.summary import risk_row, short_verdict, engine_verdicts
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
    # The study measures below where it hung: the probe's lengths, the stop, and beyond.
    entry = worst_attack.as_pattern(ENTRY, worst_attack.worst([*FLAT, HUNG], SLOW_MS), "measured")
    assert [n - entry.fixed for n in entry.lengths_for(False)][:3] == [8, 16, 32]


def test_the_one_that_got_slow_first_wins_then_the_steepest_rise():
    slow_late = candidate("late", [[8, 0.01], [64, 25.0]])
    slow_early = candidate("early", [[8, 0.01], [16, 30.0]])
    rising = candidate("rising", [[8, 0.01], [64, 5.0]])
    assert worst_attack.worst([slow_late, rising, slow_early], SLOW_MS).shape == "early"
    assert worst_attack.worst([FLAT[0], rising], SLOW_MS).shape == "rising"


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
    return [Row("r", "regex", "match", f"engine={engine};length={n};pattern=p", 0, "match_ms", t, "ms", "ok", "")
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
