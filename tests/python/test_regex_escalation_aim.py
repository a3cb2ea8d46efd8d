"""The escalation aims a curve's last match near its stop: lengths halfway again between each two of
the ladder go to the probe as `aim` inputs, which it measures only where the next length would
overshoot the stop twice over (benches/regex_probe.cc)."""
from conftest import BUILD
from stallbench_lib.families.regex import triage
from stallbench_lib.families.regex.patterns import Pattern, Pump
from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row

PATTERN = Pattern("p", "^(a+)+$", None, "", "", (Pump("", "a"),), "!", None, None, None, None, "hand-written", "", "")
VARIANT = PATTERN.variants()[0]


def test_the_aims_lie_between_the_ladders_lengths():
    ladder = triage.halfway(VARIANT)
    aims = triage.aimed(VARIANT, ladder)
    assert aims and not aims & set(ladder)
    assert all(any(a < n < b for a, b in zip(ladder, ladder[1:])) for n in aims)
    assert len(aims) <= len(ladder) - 1  # at most one between two


def test_the_escalation_asks_for_them_as_aims_and_a_given_ladder_gets_none(monkeypatch):
    asked = []

    def probe(binary, plan, nodes=None, slow_ms=0, aim=None, **_):
        asked.append((plan, aim))
        return [Row("", "regex", "match", Params({"engine": e, "length": n, "pattern": "p"}), 0, "match_ms", 1.0,
                    "ms", "ok", "") for e, items in plan.items() for _, ns in items for n in ns]

    monkeypatch.setattr(triage, "probe", probe)
    triage.escalate("probe", {("p", "std")}, [VARIANT])
    (plan, aim) = asked[0]
    lengths = plan["std"][0][1]
    assert aim["p"] and aim["p"] <= set(lengths) and set(triage.halfway(VARIANT)) <= set(lengths)
    asked.clear()
    triage.escalate("probe", {("p", "std")}, [VARIANT], ladder=[5, 9, 17])
    assert asked[0][0]["std"][0][1] == [5, 9, 17] and not asked[0][1]["p"]


def test_the_probe_skips_an_aim_that_would_not_overshoot_and_measures_one_with_nothing_after_it():
    # With a stop no match reaches, no next length can overshoot it: the aims before another length
    # are skipped, the last one (nothing after it) is measured.
    plan = {"re2": [(VARIANT, [5, 7, 9, 12])]}
    rows = triage.probe(BUILD / "benches" / "regex_probe", plan, slow_ms=1e9, aim={"p": {7, 12}})
    assert sorted(int(r.params["length"]) for r in rows if r.metric == "match_ms") == [5, 9, 12]
    # Without aims, every length.
    rows = triage.probe(BUILD / "benches" / "regex_probe", plan, slow_ms=1e9)
    assert sorted(int(r.params["length"]) for r in rows if r.metric == "match_ms") == [5, 7, 9, 12]
