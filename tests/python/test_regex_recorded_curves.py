"""Curves recorded on this machine, every engine (Java included), classified as the engines behave:
each match time and how the curve ended, as the run wrote them (data/regex_recorded_curves.json,
which names the command and run of each), against the class the regex has on that engine. And the
same class when the machine's noise redraws every time (each time /1.15 to x1.15, twenty draws: the
spread of a length measured twice here, up to x1.3 apart): a class a second run could read otherwise
is no class.

The recordings include Java on `^(\\w+\\s?)*$` (a slow first match, then 290 ms at 1,026 bytes: once
read linear) and on Tika's applicable-documents regex (0.10 ms at 33 bytes, 0.58 ms at 65, then over
its budget at 129: a stop too soon for linear growth)."""
import json
import random

import pytest

from conftest import DATA
from stallbench_lib.parameters import Params
from stallbench_lib.families.regex.curves import curves
from stallbench_lib.tidy import Row

RECORDED = json.loads((DATA / "regex_recorded_curves.json").read_text())
SUPER_LINEAR = {"polynomial", "exponential", "growing", "timeout"}
CLASSES = {"linear": {"linear"}, "polynomial": {"polynomial"}, "exponential": {"exponential"},
           "super-linear": SUPER_LINEAR, "guarded": {"guarded"}}


def curve_of(recorded: dict, scale=lambda t: t):
    rows = [Row("r", "regex", "match", Params({"engine": recorded["engine"], "length": n, "pattern": "p"}), 0, "match_ms",
                None if ms is None else scale(ms), "ms", status, detail)
            for n, ms, status, detail in recorded["rows"]]
    return curves(rows, {"p": recorded["fixed"]})[("p", recorded["engine"])]


def name(recorded: dict) -> str:
    return f"{recorded['regex'][:24]}-{recorded['engine']}"


@pytest.mark.parametrize("recorded", RECORDED, ids=name)
def test_a_recorded_curve_reads_as_the_engine_behaves(recorded):
    curve = curve_of(recorded)
    assert curve.verdict in CLASSES[recorded["expect"]], curve.describe()


@pytest.mark.parametrize("recorded", RECORDED, ids=name)
def test_the_class_holds_when_the_noise_is_drawn_again(recorded):
    rng = random.Random(recorded["engine"] + recorded["regex"])
    first = curve_of(recorded).verdict in SUPER_LINEAR
    for _ in range(20):
        again = curve_of(recorded, lambda t: t * rng.uniform(1 / 1.15, 1.15))
        assert (again.verdict in SUPER_LINEAR) == first, again.describe()


def test_every_engine_is_recorded_java_included():
    engines = {r["engine"].split("@")[0] for r in RECORDED}
    assert {"java", "python", "ruby", "node", "std", "pcre2", "re2", "go", "rust"} <= engines
    java = [r for r in RECORDED if r["engine"] == "java" and r["expect"] != "linear"]
    assert len(java) >= 3
