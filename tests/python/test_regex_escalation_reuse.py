"""The escalation of a scan starts from the triage's points of the pairs it escalates: their lengths
are not measured again, nor lengths past a triage point that already passed the stop; the triage's
rows are points of the curves."""
from stallbench_lib.families.regex import triage
from stallbench_lib.families.regex.patterns import Pattern, Pump
from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row

PATTERN = Pattern("p", "^(a+)+$", None, "", "", (Pump("", "a"),), "!", None, None, None, None, "hand-written", "", "")
VARIANT = PATTERN.variants()[0]
LADDER = [5, 9, 17, 33, 65, 129]


def _row(engine, length, ms, status="ok"):
    return Row("", "regex", "match", Params({"engine": engine, "length": length, "pattern": "p"}), 0, "match_ms",
               ms, "ms", status, "")


def _escalate(monkeypatch, triaged):
    asked = []

    def probe(binary, plan, nodes=None, slow_ms=0, **_):
        asked.append({engine: [ns for _, ns in items] for engine, items in plan.items()})
        return [_row(engine, n, 1.0) for engine, items in plan.items() for _, ns in items for n in ns]

    monkeypatch.setattr(triage, "probe", probe)
    rows = triage.escalate("probe", {("p", "std"), ("p", "boost")}, [VARIANT], ladder=LADDER, triaged=triaged)
    return asked[0], rows


def test_the_escalation_measures_only_what_the_triage_did_not(monkeypatch):
    triaged = [_row("std", 9, 0.01), _row("std", 33, 2.0),               # below the stop: kept, not measured again
               _row("boost", 17, 150.0),                                  # past it: nothing longer is measured
               _row("std", 65, None, "timeout"), _row("re2", 9, 0.01)]  # a failure is measured again; re2 not escalated
    first, rows = _escalate(monkeypatch, triaged)
    assert first == {"std": [[5, 17, 65, 129]], "boost": [[5, 9]]}
    points = {(r.params["engine"], int(r.params["length"])) for r in rows if r.status == "ok"}
    assert {("std", 9), ("std", 33), ("boost", 17)} <= points and ("re2", 9) not in points
    assert not [r for r in rows if r.status != "ok"]


def test_without_the_triage_every_length_of_the_ladder_is_measured(monkeypatch):
    first, _ = _escalate(monkeypatch, [])
    assert first == {"std": [LADDER], "boost": [LADDER]}
