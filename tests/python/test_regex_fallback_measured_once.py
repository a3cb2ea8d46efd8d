"""An engine that falls back on a regex (node-linear@26 on a pattern V8's linear engine does not
take) runs its implementation's algorithm on the same Node line (node@26): a scan measures that one
once for both, and the pair gets that curve with where it came from said; its own answers still
judge it."""
from stallbench_lib.families.regex import triage
from stallbench_lib.families.regex.curves import WRONG, curves
from stallbench_lib.families.regex.engines import Engines
from stallbench_lib.families.regex.patterns import Pattern, Pump
from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row

TABLE = Engines(({"name": "node", "implementation": "node", "per_node_line": True},
                 {"name": "node-linear", "implementation": "node", "per_node_line": True},
                 {"name": "pcre2", "implementation": "pcre2"},
                 {"name": "pcre2-jit", "implementation": "pcre2"}))
WHY = "V8's linear engine does not take the i flag: backtracking"
FALLBACKS = {"p": {"node-linear@26": WHY}}
PATTERN = Pattern("p", "^(a+)+$", None, "i", "", (Pump("", "a"),), "!", None, None, None, None, "hand-written", "", "")
VARIANT = PATTERN.variants()[0]


def _row(engine, length, ms):
    params = {"engine": engine, "length": length, "pattern": "p"}
    if engine.startswith("node"):
        params = {**params, "engine": engine.split("@")[0], "node_line": engine.split("@")[1]}
    return Row("", "regex", "match", Params(params), 0, "match_ms", ms, "ms", "ok", "")


def test_a_fallback_is_measured_as_its_implementation_on_the_same_line():
    engines = ["node@26", "node-linear@26", "node@system", "node-linear@system", "pcre2", "pcre2-jit"]
    found = TABLE.measured_as({"p": {"node-linear@26": WHY, "node-linear@system": WHY}}, engines)
    assert found == {("p", "node-linear@26"): "node@26", ("p", "node-linear@system"): "node@system"}
    # Without its implementation among the engines measured, it is measured itself.
    assert TABLE.measured_as(FALLBACKS, ["node-linear@26", "node@system"]) == {}
    assert TABLE.measured_as({}, engines) == {}


def test_the_triage_leaves_the_pair_out(monkeypatch):
    asked = {}

    def probe(binary, plan, nodes=None, **_):
        asked.update({engine: [v.name for v, _ in items] for engine, items in plan.items()})
        return []

    monkeypatch.setattr(triage, "probe", probe)
    triage.triage("probe", ["node@26", "node-linear@26", "pcre2"], [VARIANT],
                  measured_as=TABLE.measured_as(FALLBACKS, ["node@26", "node-linear@26"]))
    assert asked == {"node@26": ["p"], "pcre2": ["p"]}  # an engine with nothing left starts no process


def test_the_pair_gets_the_measured_curve_and_says_whose_it_is():
    rows = [_row("node@26", n, ms) for n, ms in [(8, 0.01), (16, 2.5), (24, 640.0)]]
    same = TABLE.measured_as(FALLBACKS)
    found = curves(rows, fallbacks=FALLBACKS, measured_as=same)
    mine, its = found[("p", "node-linear@26")], found[("p", "node@26")]
    assert mine.verdict == its.verdict and mine.points == its.points and mine.engine == "node-linear@26"
    assert "measured as node@26" in mine.describe() and WHY in mine.describe()
    assert "measured as" not in its.describe()
    # Its own wrong answers still make its verdict.
    wrong = {"p": {"node-linear@26": {"answer": True, "input": "'a'", "by": "node@26", "reference": False,
                                      "inputs": 1}}}
    assert curves(rows, wrong=wrong, fallbacks=FALLBACKS, measured_as=same)[("p", "node-linear@26")].verdict == WRONG


def test_a_pair_with_rows_of_its_own_keeps_them():
    rows = [_row("node@26", n, ms) for n, ms in [(8, 0.01), (16, 2.5), (24, 640.0)]]
    rows += [_row("node-linear@26", n, 0.01 * n) for n in (8, 16, 24)]
    found = curves(rows, fallbacks=FALLBACKS, measured_as=TABLE.measured_as(FALLBACKS))
    mine = found[("p", "node-linear@26")]
    assert mine.measured_as is None and mine.verdict != found[("p", "node@26")].verdict
