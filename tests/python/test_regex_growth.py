"""Growth classification on synthetic curves: the shapes, the fitted degree and base, noise, and
the verdict a curve gets from how it ended."""
import random

import pytest

from stallbench_lib.parameters import Params
from stallbench_lib.families.regex import refine
from stallbench_lib.families.regex.curves import curves
from stallbench_lib.families.regex.growth import classify
from stallbench_lib.tidy import Row

EXP_LENGTHS = [12, 16, 20, 22, 24, 26, 28]
LONG_LENGTHS = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000]


def noisy(values, spread, seed=7):
    rng = random.Random(seed)
    return [v * rng.uniform(1 - spread, 1 + spread) for v in values]


def test_exponential_base_two_like_the_seed():
    # The seed's x4 per 2 characters, on top of a fixed call cost.
    growth = classify(EXP_LENGTHS, [0.002 + 1e-3 * 2 ** (n - 12) for n in EXP_LENGTHS])
    assert growth.kind == "exponential"
    assert growth.base == pytest.approx(2.0, rel=0.05)
    assert growth.r2 > 0.99


def test_exponential_golden_ratio():
    lengths = [16, 20, 24, 28, 32, 36]
    growth = classify(lengths, [1e-4 * 1.618 ** n for n in lengths])
    assert growth.kind == "exponential" and growth.base == pytest.approx(1.618, rel=0.05)


def test_quadratic():
    growth = classify(LONG_LENGTHS, [0.001 + 1e-6 * n * n for n in LONG_LENGTHS])
    assert growth.kind == "polynomial" and growth.degree == pytest.approx(2.0, abs=0.15)


def test_quartic_is_polynomial_not_exponential():
    lengths = [16, 32, 64, 128, 256]
    growth = classify(lengths, [0.001 + 1e-9 * n ** 4 for n in lengths])
    assert growth.kind == "polynomial" and growth.degree == pytest.approx(4.0, abs=0.3)


def test_linear_with_call_overhead():
    lengths = [12, 16, 20, 24, 28, 32, 1024, 65536]
    assert classify(lengths, [1e-4 + 1e-8 * n for n in lengths]).kind == "linear"
    assert classify(LONG_LENGTHS, [0.0005 + 1e-5 * n for n in LONG_LENGTHS]).kind == "linear"


@pytest.mark.parametrize("seed", range(5))
def test_noisy_curves_keep_their_class(seed):
    linear = classify(LONG_LENGTHS, noisy([0.0005 + 1e-5 * n for n in LONG_LENGTHS], 0.3, seed))
    quadratic = classify(LONG_LENGTHS, noisy([1e-6 * n * n for n in LONG_LENGTHS], 0.3, seed))
    exponential = classify(EXP_LENGTHS, noisy([1e-3 * 2 ** (n - 12) for n in EXP_LENGTHS], 0.3, seed))
    assert linear.kind == "linear"
    assert quadratic.kind == "polynomial" and 1.7 < quadratic.degree < 2.3
    assert exponential.kind == "exponential" and 1.8 < exponential.base < 2.2


def test_flat_noise_is_linear_without_a_fit_quality():
    growth = classify(LONG_LENGTHS, noisy([1e-4] * len(LONG_LENGTHS), 0.4))
    assert growth.kind == "linear" and growth.r2 is None


def test_too_few_points():
    assert classify([20, 22], [1.0, 4.0]).kind == "unknown"


def _rows(engine, points, stop=None, repetition=0):
    rows = [Row("r", "regex", "match", Params({"engine": engine, "length": n, "pattern": "p"}), repetition, "match_ms", t, "ms", "ok",
                "") for n, t in points]
    if stop:
        n, status, detail = stop
        rows.append(Row("r", "regex", "match", Params({"engine": engine, "length": n, "pattern": "p"}), 0, "match_ms", None, "ms",
                        status, detail))
    return rows


def test_verdict_from_how_the_curve_ended():
    exp = [(n, 1e-3 * 2 ** (n - 12)) for n in EXP_LENGTHS]
    found = curves(_rows("std", exp, (30, "timeout", "repetition 0 exceeded 1.05 s"))
                   + _rows("boost", exp[:2], (20, "guarded", "error_complexity: ..."))
                   + _rows("re2", [], (12, "rejected", "invalid escape sequence: \\1"))
                   + _rows("node", exp[:1], (16, "timeout", "repetition 0 exceeded 1.05 s")))
    assert found[("p", "std")].verdict == "exponential"
    assert found[("p", "std")].stop.length == 30
    assert found[("p", "boost")].verdict == "guarded"
    assert found[("p", "re2")].verdict == "rejected"
    assert found[("p", "node")].verdict == "timeout"
    assert "timeout at 30" in found[("p", "std")].describe()


# color-string's hwb on PCRE2 (issue 14): near-instant up to ~4,000 bytes, then about quadratic
# (26 ms at 8,000, 503 ms at 32,000). Over the whole range one power fit said "polynomial 6.6".
HWB_LENGTHS = [125, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000]
HWB_TIMES = [0.0011, 0.0012, 0.0011, 0.0013, 0.0012, 0.0014, 26.0, 115.0, 503.0]


def test_a_regime_change_reports_both_regimes_and_where_growth_starts():
    growth = classify(HWB_LENGTHS, HWB_TIMES)
    assert growth.kind == "polynomial" and 1.8 < growth.degree < 2.5
    assert growth.flat_until == 4000 and growth.flat_ms == pytest.approx(0.0012, rel=0.2)
    assert growth.regime_text().startswith("flat (~0.0012 ms) up to 4,000, then")


def test_the_fixed_cost_of_a_call_is_at_most_the_curves_shortest_time():
    # PCRE2's ^\d+\d+x: flat (45 ns) to 4,097, then quadratic; four points past the turn over 5.7x,
    # the first and the last 1.5x slow (the spread of its repeats at load 10). A constant taken
    # from the fitted points (up to 0.995 x 12 ms) once read degree 2.9 from this, and 3.2 at CI.
    lengths = [1025, 2049, 4097, 5794, 8193, 16385, 32769]
    slow = [1, 1, 1, 1.5, 1, 1, 1.5]
    times = [4.5e-5 if n <= 4097 else 4e-7 * n ** 2 * x for n, x in zip(lengths, slow)]
    growth = classify(lengths, times)
    assert growth.kind == "polynomial" and growth.flat_until == 4097 and 1.7 < growth.degree < 2.3


def test_a_linear_control_with_a_flat_start_is_linear():
    # color-string's rgba (linear) on PCRE2: flat, then growing in proportion to the input.
    times = [0.001, 0.001, 0.0012, 0.0011, 0.0013, 0.002, 0.004, 0.0081, 0.016]
    growth = classify(HWB_LENGTHS, times)
    assert growth.kind == "linear"


def test_lengths_are_pumped_lengths_behind_a_prefix():
    # ssri's fixed regex behind a 53-byte prefix: linear in the 4 to 28 pumped bytes. Against the
    # whole input length (57 to 81) it read as polynomial 2.4-3.3.
    lengths = list(range(57, 82, 4))
    times = [1e-3 * (n - 53) for n in lengths]
    rows = [Row("r", "regex", "match", Params({"engine": "std", "length": n, "pattern": "ssri"}), 0, "match_ms", t, "ms", "ok", "")
            for n, t in zip(lengths, times)]
    assert curves(rows)[("ssri", "std")].verdict == "polynomial"
    pumped = curves(rows, {"ssri": 53})[("ssri", "std")]
    assert pumped.verdict == "linear"


def test_wrong_answers_replace_the_verdict():
    rows = _rows("boost", [(n, 1e-4) for n in LONG_LENGTHS])
    wrong = {"p": {"boost": {"input": "'1!'", "answer": True, "reference": False, "by": "node", "inputs": 3}}}
    curve = curves(rows, wrong=wrong)[("p", "boost")]
    assert curve.verdict == "wrong answers"
    assert curve.describe() == "wrong answers: match on '1!' where node says no match (3 inputs)"


def test_a_fitted_curve_keeps_its_verdict_and_shows_where_it_stopped():
    from stallbench_lib.families.regex.summary import short_verdict

    linear = [(n, 1e-4 + 1e-8 * n) for n in LONG_LENGTHS]
    curve = curves(_rows("std", linear, (256000, "crashed", "SIGSEGV")))[("p", "std")]
    assert curve.verdict == "linear" and short_verdict(curve) == "linear, crashed@256000"


def test_a_step_at_the_end_of_a_linear_curve_is_not_growth():
    # node-linear on a linear rewrite (measured here): linear up to 32,769, then V8 switched to its
    # experimental engine, x140 at the last length. One step, not a polynomial.
    lengths = [1, 25, 121, 505, 2041, 8185, 32761, 65529]
    times = [0.00017, 0.00015, 0.00038, 0.0015, 0.0070, 0.020, 0.084, 11.7]
    growth = classify(lengths, times)
    assert growth.kind == "linear" and growth.step_at == 65529 and growth.step_ratio == pytest.approx(139, rel=0.01)
    # An outlier in the middle of a linear curve does not make it grow either.
    spiked = [t if n != 2041 else 5.0 for n, t in zip(lengths[:-1], times[:-1])]
    assert classify(lengths[:-1], spiked).kind == "linear"


# A quadratic pattern on PCRE2 (issue 26, held out): instant up to 2,049 bytes, then 56.6 ms at 8,193
# and 884 ms at 32,769, then over the budget. Read as "poly 5.8 (R² 0.92)" from the two points
# past the turn.
TURN_LENGTHS = [129, 513, 2049, 8193, 32769]
TURN_TIMES = [0.0011, 0.0012, 0.0011, 56.6, 884.0]


def test_two_points_past_a_turn_give_no_degree():
    growth = classify(TURN_LENGTHS, TURN_TIMES)
    assert growth.kind == "growing" and growth.degree is None and growth.flat_until == 2049
    assert "too few to read a degree" in growth.describe()


def test_a_turn_is_refined_inside_and_then_reads_as_quadratic():
    from stallbench_lib.families.regex import refine

    rows = _rows("pcre2", list(zip(TURN_LENGTHS, TURN_TIMES)), (131073, "timeout", "repetition 0 exceeded 1.05 s"))
    curve = curves(rows)[("p", "pcre2")]
    added = refine.turn_lengths(curve)
    assert added == [4097, 16385, 65537]  # the geometric middles from the last flat length to the stop
    quadratic = lambda n: 0.0011 if n <= 4097 else 884.0 * (n / 32769) ** 2
    refined = curves(rows + _rows("pcre2", [(n, quadratic(n)) for n in added]))[("p", "pcre2")]
    assert refined.verdict == "polynomial" and refined.growth.degree == pytest.approx(2.0, abs=0.2)
    assert refine.turn_lengths(refined) == []


def test_a_length_measured_twice_counts_its_fastest_cell_so_load_does_not_make_growth():
    # A linear curve whose two longest cells met a busy machine (x20), measured again on a quiet one.
    clean = [(n, 1e-5 * n) for n in LONG_LENGTHS]
    loaded = [(n, t * (20 if n >= 64000 else 1)) for n, t in clean]
    once = curves(_rows("pcre2", loaded))[("p", "pcre2")]
    assert once.verdict == "polynomial"  # one measurement per length: the load reads as growth
    from stallbench_lib.families.regex import refine
    assert refine.repeat_lengths(once) == LONG_LENGTHS
    again = curves(_rows("pcre2", loaded) + _rows("pcre2", clean, repetition=1))[("p", "pcre2")]
    assert again.verdict == "linear" and again.spread() == pytest.approx(20)
    assert "measured again" in again.describe() and refine.repeat_lengths(again) == []


def test_engines_in_a_disagreement_nothing_decides_get_no_growth_class():
    exp = [(n, 1e-3 * 2 ** (n - 12)) for n in EXP_LENGTHS]
    group = {"pattern": "p", "input": "'aZ'", "answers": {"std": True, "pcre2": False}, "inputs": 152}
    found = curves(_rows("std", exp) + _rows("pcre2", exp) + _rows("re2", exp), unresolved=[group])
    assert found[("p", "std")].verdict == "disputed answers" and found[("p", "pcre2")].verdict == "disputed answers"
    assert found[("p", "re2")].verdict == "exponential"
    assert "152 inputs" in found[("p", "std")].describe()


def test_a_curve_stopped_before_it_could_be_read_gets_lengths_below_its_stop():
    from stallbench_lib.families.regex import refine

    # An exponential that went from 0.5 ms to over the budget between two lengths: three between.
    curve = curves(_rows("std", [(8, 0.001), (16, 0.5)], (32, "timeout", "repetition 0 exceeded 1.05 s")))[("p", "std")]
    assert curve.verdict == "timeout" and refine.turn_lengths(curve) == [19, 23, 27]
    # Over the budget at its shortest input, behind a 40-byte prefix: between the prefix and the stop.
    first = curves(_rows("std", [], (49, "timeout", "repetition 0 exceeded 1.05 s")), {"p": 40})[("p", "std")]
    assert refine.turn_lengths(first) == [42, 43, 45]  # geometric on the pumped bytes, 1 to 9
    rejected = curves(_rows("re2", [], (12, "rejected", "invalid escape")))[("p", "re2")]
    assert refine.turn_lengths(rejected) == []


def test_a_scan_curve_past_its_stop_time_too_soon_gets_lengths_below_it():
    from stallbench_lib.families.regex import refine

    # A scan's escalation ends a curve at the first match past 100 ms: an exponential there after two
    # lengths gets three between them, one there at its first length three above its shortest input.
    two = curves(_rows("std", [(8, 0.001), (16, 250.0)]))[("p", "std")]
    assert refine.below_slow(two, 100) == [10, 11, 13]
    one = curves(_rows("std", [(49, 250.0)]), {"p": 40})[("p", "std")]
    assert refine.below_slow(one, 100) == [42, 43, 45]
    # Three points, or a last point under the stop time: nothing to add.
    assert refine.below_slow(curves(_rows("std", [(8, 0.001), (16, 0.01), (32, 250.0)]))[("p", "std")], 100) == []
    assert refine.below_slow(curves(_rows("std", [(8, 0.001), (16, 50.0)]))[("p", "std")], 100) == []


def test_the_triage_escalates_a_curve_that_turns_up_steeply_at_its_end_whatever_its_fit_reads():
    from types import SimpleNamespace
    from stallbench_lib.families.regex import triage

    variant = SimpleNamespace(name="p", pattern=SimpleNamespace(fixed=27))
    # Boost on a quadratic regex of a real scan (27 fixed bytes): a fit over the three points reads it
    # linear (median slope 1.49; its last segment's 1.8 could be a linear engine changing regime); the
    # triage escalates it all the same.
    turning = _rows("boost", [(59, 0.0012), (539, 0.022), (32795, 35.8)])
    linear = _rows("re2", [(59, 0.001), (539, 0.009), (32795, 0.55)])
    fast = _rows("std", [(59, 0.00001), (539, 0.00002), (32795, 0.0004)])  # steep, under the noise floor
    assert curves(turning, {"p": 27})[("p", "boost")].verdict == "linear"
    assert triage.blown_up(turning + linear + fast, [variant]) == {("p", "boost")}


def test_a_tree_s_report_draws_the_riskiest_curves_only():
    from stallbench_lib.families.regex import section as family

    exp = [(n, 1e-3 * 2 ** (n - 12)) for n in EXP_LENGTHS]
    flat = [(n, 1e-3) for n in EXP_LENGTHS]
    rows = []
    for k in range(family.MAX_PANELS + 8):  # every third regex blows up, later ones sooner
        points = [(n, t * (k + 1)) for n, t in exp] if k % 3 == 0 else flat
        rows += [Row("r", "regex", "match", Params({"engine": "std", "length": n, "pattern": f"p{k}"}), 0, "match_ms", t, "ms", "ok", "")
                 for n, t in points]
    names = [f"p{k}" for k in range(family.MAX_PANELS + 8)]
    drawn, note = family.panels(curves(rows), names, ["std"])
    assert sorted(drawn) == sorted(f"p{k}" for k in range(0, family.MAX_PANELS + 8, 3))
    assert "7 riskiest of the 20 regexes (7 blow up" in note
    assert family.panels(curves(rows), names[:family.MAX_PANELS], ["std"]) == (names[:family.MAX_PANELS], "")


def test_a_curve_taken_from_the_engine_it_fell_back_to_is_drawn_once_in_that_engine_s_colour():
    """A scan measures node-linear once as node where it falls back: the two curves are one, so the
    panel draws node's alone (drawn twice, the second colour hid the first) and the legend says why.
    With that engine not drawn, the taken curve is drawn under its own name."""
    from stallbench_lib.families.regex import section as family

    exp = [(n, 1e-3 * 2 ** (n - 12)) for n in EXP_LENGTHS]
    flat = [(n, 1e-3) for n in EXP_LENGTHS]
    found = curves(_rows("node", exp) + _rows("re2", flat), measured_as={("p", "node-linear"): "node"})
    assert found[("p", "node-linear")].points == found[("p", "node")].points
    drawn, not_again = family.drawn_curves(found, "p", ["node", "node-linear", "re2"])
    assert [(c.engine, dashed) for c, dashed in drawn] == [("node", False), ("re2", False)]
    assert not_again == {("node-linear", "node")}
    drawn, not_again = family.drawn_curves(found, "p", ["node-linear", "re2"])
    assert [c.engine for c, _ in drawn] == ["node-linear", "re2"] and not not_again


def test_a_curve_that_ends_in_a_timeout_too_soon_for_linear_growth_is_never_linear():
    # Tika's header regex on Java (the figures): 0.012 ms up to 35 ms, then over the budget at
    # the next length. Growing in proportion it would have taken 140 ms there: the stop proves growth.
    tika = [(1000, 22.0), (2000, 40.0), (4000, 70.0), (8000, 150.0)]  # its fit: linear (median slope 0.95)
    assert classify(*zip(*tika)).kind == "linear"
    found = curves(_rows("java", tika, (16000, "timeout", "repetition 0 exceeded 1.05 s")))[("p", "java")]
    assert found.verdict == "growing" and "grew faster than its input" in found.describe()
    assert refine.turn_lengths(found)  # then measured below the stop, where its degree can be read
    # A linear curve whose next length would be over the budget anyway stays linear.
    linear = [(n, 5e-3 * n) for n in (1000, 10000, 100000)]
    long = curves(_rows("std", linear, (200000, "timeout", "repetition 0 exceeded 1.05 s")))[("p", "std")]
    assert long.verdict == "linear"
    # A guard that counts steps proves growth; one that fires on stack depth does not.
    flat = [(n, 1e-4) for n in (1000, 10000, 100000)]
    stepped = curves(_rows("pcre2", flat, (200000, "guarded", "error -47: match limit exceeded")))[("p", "pcre2")]
    stack = curves(_rows("java", flat, (200000, "guarded", "StackOverflowError: the matcher's recursion")))[("p", "java")]
    assert stepped.verdict == "growing" and stack.verdict == "linear"
    # The scan's probe names its own limit.
    probed = curves(_rows("java", tika, (16000, "timeout", "one match over 2 s in regex_probe")))[("p", "java")]
    assert probed.verdict == "growing"


@pytest.mark.parametrize("seed", range(8))
def test_a_polynomial_over_a_narrow_range_is_not_read_as_a_slight_exponential(seed):
    # Java's quadratic curves read "exp x1.02-1.20" and repeated-dot-star's degree 4 "exp x1.17":
    # over a narrow range both models fit noisy points alike; the polynomial stands unless the
    # exponential is clearly better.
    quadratic = [1000, 1414, 2000, 2828, 4000]
    assert classify(quadratic, noisy([1e-5 * n * n for n in quadratic], 0.25, seed)).kind in ("polynomial", "growing")
    quartic = [64, 76, 90, 107, 128]
    assert classify(quartic, noisy([1e-8 * n ** 4 for n in quartic], 0.25, seed)).kind in ("polynomial", "growing")
    # An exponential over enough points is still one, with a long pump's small base per byte too.
    pumped = [13 * k for k in range(2, 12)]
    assert classify(pumped, noisy([1e-4 * 2 ** (n / 13) for n in pumped], 0.05, seed)).kind == "exponential"


def test_an_automaton_checked_once_is_linear_by_construction_and_a_backtracking_engine_is_not():
    # A scan's triage checks the engines linear by construction (RE2, Go...) at one length only.
    found = curves(_rows("re2", [(32776, 0.05)]) + _rows("std", [(32776, 0.05)])
                   + _rows("go", [], (32776, "rejected", "invalid escape")), automata=frozenset({"re2", "go"}))
    assert found[("p", "re2")].verdict == "linear" and "by construction" in found[("p", "re2")].describe()
    assert found[("p", "std")].verdict == "unknown"
    assert found[("p", "go")].verdict == "rejected"  # a refusal stays a refusal


# Flat at a call's fixed cost, then growing: the usual shape of a polynomial attack, seen in 1,032 of a
# tree's 1,140 polynomial curves (the 893-regex tree, docs/regex.md).
def _turned(degree, scale, lengths):
    return curves(_rows("pcre2", [(n, 0.002 + scale * n ** degree) for n in lengths]))[("p", "pcre2")]


DOUBLING = [2 ** k for k in range(4, 17)]  # 16 to 65,536
QUADRUPLING = [4 ** k for k in range(1, 9)]  # the default ladder's steps: 4 to 65,536


def test_a_clear_polynomial_past_a_turn_stands_without_being_measured_again():
    clear = _turned(2.0, 2e-8, DOUBLING)  # flat up to 256, then eight points of a quadratic
    assert clear.verdict == "polynomial" and clear.growth.flat_until == 256
    assert clear.growth.points - clear.growth.growth_from >= refine.TURN_POINTS
    assert refine.repeat_lengths(clear) == []


def test_a_turn_with_few_points_past_it_or_a_degree_near_linear_is_measured_again():
    few = _turned(2.0, 2e-8, QUADRUPLING)  # flat up to 256, then three points 64x apart
    assert few.verdict == "polynomial" and few.growth.points - few.growth.growth_from < refine.TURN_POINTS
    assert (few.growth.r2, few.growth.fitted_span) >= (refine.CLEAR_R2, refine.NARROW_SPAN)
    assert refine.repeat_lengths(few) == QUADRUPLING
    gentle = _turned(1.7, 5e-7, DOUBLING)  # nine points past the turn, but a degree near linear
    assert gentle.verdict == "polynomial" and gentle.growth.points - gentle.growth.growth_from >= refine.TURN_POINTS
    assert gentle.growth.degree < refine.LINEAR_DEGREE + refine.NEAR_LINEAR
    assert refine.repeat_lengths(gentle) == DOUBLING
