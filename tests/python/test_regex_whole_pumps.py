"""Every attack input stallbench builds is prefix + k whole pumps + suffix: a property test over
generated attacks (pumps of every length from 1 to 24 bytes, one to three pumped places, fixed parts
of any size, with and without the u flag) and every way a length is chosen (the default ladders,
a catalogue's own lengths, --lengths, the triage, the refinement inside a turn and below a stop,
the probe's ladder of a measured attack, the sample check's shortest inputs)."""
import random

import pytest

from stallbench_lib.families.regex import patterns, refine, samples, triage, worst_attack
from stallbench_lib.families.regex.curves import Curve, Stop
from stallbench_lib.families.regex.growth import classify
from stallbench_lib.families.regex.patterns import Pattern, Pump

LETTERS = "ab\"\\ '-x0é"


def text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(size))


def attack(rng: random.Random, pump_bytes: int, places: int, unicode: bool, expect: str | None) -> Pattern:
    to_bytes = lambda t: samples.as_bytes(t, unicode)
    pumps = []
    for _ in range(places):
        pump = to_bytes(text(rng, pump_bytes))
        pumps.append(Pump(to_bytes(text(rng, rng.randrange(4))), pump[:pump_bytes] if not unicode else pump))
    return Pattern("p", "x", None, "u" if unicode else "", to_bytes(text(rng, rng.randrange(6))), tuple(pumps),
                   to_bytes(text(rng, rng.randrange(3))), None, None, expect, None, "generated", "test", "")


def is_whole(p: Pattern, n: int) -> bool:
    """attack_input(n) is exactly the prefix, each before and k copies of its pump, the suffix."""
    k, rest = divmod(n - p.fixed, p.period)
    built = p.attack_input(n)
    return rest == 0 and built == p.prefix + "".join(q.before + q.pump * k for q in p.pumps) + p.suffix \
        and len(built) == n


def chosen_lengths(p: Pattern, rng: random.Random) -> list[tuple[Pattern, int]]:
    """Every length the orchestrator can choose for this attack (or for the attack it becomes)."""
    found = p.lengths_for(False) + p.lengths_for(True)
    found += p.snapped([rng.randrange(p.fixed, 70_000) for _ in range(6)])            # a catalogue's or --lengths
    variant = p.variants()[0]
    found += triage.lengths(variant) + variant.ladder([p.fixed + 9, p.fixed + 1000])
    ladder = [p.fixed + k * p.period for k in (1, 3, 9, 27, 81)]
    flat = [(n, 0.01) for n in ladder[:3]] + [(ladder[3], 50.0)]                  # a turn with one point past it
    curve = Curve("p", "e", flat, Stop(ladder[4], "timeout", ""), classify([n - p.fixed for n, _ in flat],
                                                                          [t for _, t in flat]), p.fixed)
    assert refine.turn_lengths(curve) and refine.below_slow(Curve("p", "e", flat[-1:], None, curve.growth, p.fixed), 40)
    found += p.snapped(refine.turn_lengths(curve) + refine.below_slow(Curve("p", "e", flat[-1:], None, curve.growth,
                                                                          p.fixed), 40.0))
    as_text = lambda data: samples.as_text(data, p.unicode)
    measured = worst_attack.Measured("shape", [{"before": as_text(q.before), "pump": as_text(q.pump)} for q in p.pumps],
                                     as_text(p.suffix), [(8, 0.1), (16, 0.4)], 32)
    probed = worst_attack.as_pattern(p, measured, "measured", 20.0)
    return [(p, n) for n in found] + [(probed, n) for n in probed.lengths_for(False)]


@pytest.mark.parametrize("unicode", [False, True])
def test_every_chosen_length_is_whole_pumps(unicode):
    rng = random.Random(43)
    for pump_bytes in range(1, 25):
        for places in (1, 2, 3):
            for expect in (None, "exponential", "polynomial"):
                p = attack(rng, pump_bytes, places, unicode, expect)
                for q, n in chosen_lengths(p, rng):
                    assert n >= q.fixed + q.period and is_whole(q, n), (pump_bytes, places, n)
                for short in samples.attack_inputs(p):
                    assert is_whole(p, len(short))


def test_a_length_between_whole_pumps_is_refused_and_rounded():
    p = attack(random.Random(1), 3, 1, False, None)
    with pytest.raises(ValueError, match="whole pumps"):
        p.attack_input(p.fixed + 4)
    assert p.whole(p.fixed + 4) == p.fixed + 3 and p.whole(p.fixed + 5) == p.fixed + 6
    assert p.whole(0) == p.fixed + 3  # at least one round of the pumps
    assert p.snapped([p.fixed + 4, p.fixed + 3, p.fixed + 100]) == [p.fixed + 3, p.fixed + 99]
