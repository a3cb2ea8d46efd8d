"""Candidate attacks measured on the regex's own engine (families/regex/native_probe.py), and the study's
lengths from the probe's rungs (worst_attack.Measured.lengths): what V8 cannot see decides the attack
of a Ruby, Python or Java regex, and the lengths do not move with the probe's times."""
import shutil

import pytest

from conftest import BUILD
from stallbench_lib.families.regex import native_probe, patterns, triage, worst_attack

SLOW_MS = 20


@pytest.fixture(scope="module")
def probe_binary():
    if shutil.which("ruby") is None:
        pytest.skip("ruby is not installed")
    return triage.binary(BUILD)


def test_the_candidates_of_a_ruby_regex_are_ranked_by_onigmo(probe_binary):
    # Onigmo's call of a named group makes this quadratic on a run of letters; V8, which runs the
    # group written out (attacks are made from the JavaScript it means), is linear on it.
    (entry,) = patterns.parse("format = 2\n[[pattern]]\nname = \"uri\"\nregex = '\\A(?<s>[a-z]*)(?:/\\g<s>)*(?:#[a-z/]*)?\\z'\n"
                              "dialect = \"ruby\"\nreference = \"ruby\"\nsource = \"t\"\n", "t")
    candidates = [{"shape": "hashes", "pumps": [{"before": "", "pump": "#"}], "suffix": ""},
                  {"shape": "letters", "pumps": [{"before": "", "pump": "a"}], "suffix": "!"}]
    found = native_probe.measured(probe_binary, {"uri": (entry, candidates)}, {}, SLOW_MS)["uri"]
    assert [c["engine"] for c in found] == ["ruby", "ruby"]
    worst = worst_attack.worst(found, SLOW_MS)
    assert worst.shape == "letters" and worst_attack.grew(worst, SLOW_MS)
    assert not worst_attack.grew(worst_attack.Measured.from_reply(found[0]), SLOW_MS)


def test_a_regex_its_engine_refuses_keeps_what_v8_measured(probe_binary):
    (entry,) = patterns.parse("format = 2\n[[pattern]]\nname = \"p\"\nregex = '(?P<x>a)+'\ndialect = \"python\"\n"
                              "reference = \"ruby\"\nsource = \"t\"\n", "t")  # (?P< is not Ruby's
    candidates = [{"shape": "a", "pumps": [{"before": "", "pump": "a"}], "suffix": "!"}]
    assert native_probe.measured(probe_binary, {"p": (entry, candidates)}, {}, SLOW_MS) == {}


def test_the_study_lengths_depend_on_which_rung_got_slow_not_on_the_lengths_between():
    rungs = [(8, 0.01), (16, 0.01), (32, 0.01), (64, 0.01), (128, 0.05), (256, 140.0)]
    one = worst_attack.Measured("x", [{"before": "", "pump": "a"}], "!", rungs + [(152, 0.2), (181, 1.3), (215, 10.0)], None)
    other = worst_attack.Measured("x", [{"before": "", "pump": "a"}], "!", rungs + [(140, 0.1), (200, 30.0)], None)
    assert one.lengths(1, SLOW_MS) == other.lengths(1, SLOW_MS)
    lengths = [n - 1 for n in one.lengths(1, SLOW_MS)]
    assert len([n for n in lengths if 128 < n < 256]) == worst_attack.BETWEEN  # the growth has points to fit
    assert lengths[-3:] == [256, 512, worst_attack.LONGEST]
    hung = worst_attack.Measured("x", [{"before": "", "pump": "abc"}], "!", [(9, 0.01), (15, 0.02)], 33)
    assert {9, 15, 33, 66} <= set(hung.lengths(0, SLOW_MS))  # its rungs in whole rounds of its 3-byte pump
