"""A scan's escalation stops a curve at the first match past summary.SLOW_MS, where its class is
decided, and takes on to refine.DECIDING_MS only a curve whose degree there is still near linear
(refine.undecided): cut short, a curve that turns late reads lower than it is."""
from stallbench_lib.families.regex import refine, summary, triage
from stallbench_lib.families.regex.curves import curves
from stallbench_lib.families.regex.patterns import Pattern, Pump
from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row

PATTERN = Pattern("p", "^(a+)+$", None, "", "", (Pump("", "a"),), "!", None, None, None, None, "hand-written", "", "")
VARIANT = PATTERN.variants()[0]
LADDER = [5, 9, 17, 33, 65, 129, 257, 513, 1025]
GROWS = {"std": lambda n: 0.01 * n ** 1.5,      # at 25 ms, degree 1.5: undecided
         "boost": lambda n: 0.0005 * n ** 2.5}  # at 25 ms, degree 2.5: decided


def _row(engine, length, ms):
    return Row("", "regex", "match", Params({"engine": engine, "length": length, "pattern": "p"}), 0, "match_ms",
               ms, "ms", "ok", "")


def test_only_the_undecided_curve_goes_on_past_the_stop(monkeypatch):
    asked = []

    def probe(binary, plan, nodes=None, slow_ms=0, **_):  # each length until a match takes slow_ms, as the probe does
        asked.append((slow_ms, {engine: [ns for _, ns in items] for engine, items in plan.items()}))
        rows = []
        for engine, items in plan.items():
            for _, ns in items:
                for n in ns:
                    rows.append(_row(engine, n, GROWS[engine](n)))
                    if GROWS[engine](n) >= slow_ms:
                        break
        return rows

    monkeypatch.setattr(triage, "probe", probe)
    rows = triage.escalate("probe", {("p", "std"), ("p", "boost")}, [VARIANT], ladder=LADDER)
    assert asked[0] == (summary.SLOW_MS, {"boost": [LADDER], "std": [LADDER]})
    assert asked[1] == (refine.DECIDING_MS, {"std": [[513, 1025]]})  # past the 25 ms at 257, up to 100 ms
    found = curves(rows, {"p": PATTERN.fixed})
    assert max(n for n, _ in found[("p", "boost")].points) == 129  # 94 ms: past the stop, not measured on
    assert max(n for n, _ in found[("p", "std")].points) == 513    # 116 ms
    assert refine.undecided(curves([r for r in rows if int(r.params["length"]) <= 257], {"p": PATTERN.fixed})[("p", "std")])
    assert not refine.undecided(found[("p", "boost")])
