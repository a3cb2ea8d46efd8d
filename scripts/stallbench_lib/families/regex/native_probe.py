"""The candidate attacks of a regex written for another engine than V8 (a Python, Ruby or Java regex,
or a catalogue entry whose `reference` is another engine) measured again on that engine, in
regex_probe (triage.probe: one process for every such regex, a stuck match killed and recorded),
so that the worst attack is the worst where the regex runs. V8 (analyse.js's probe) cannot see
what only the regex's own engine does: Onigmo's call of a named group (`\\g<segment>`) is
quadratic on Ruby's uri regex where V8, running the group written out, is linear; Onigmo looks for
the characters every match needs before it backtracks, so an attack must hold them even where the
input then matches (Rails' `\\s*,\\s*` under split); Java remembers where a `*` loop failed, so
recheck's exponential attack on Tika's header regex is polynomial there. Each candidate is measured
over the same pumped lengths as on V8, whole pumps, up to the first match past the probe's slow time."""
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import UsageError
from . import samples, triage
from .worst_attack import ladder
from .engines import Engines
from .patterns import Pattern, Pump, Variant, with_attack

SEPARATOR = "#"  # a candidate's probe name: pattern name, SEPARATOR, its index


def _as_variant(pattern: Pattern, index: int, candidate: dict) -> tuple[Variant, list[int]] | None:
    """The candidate as a variant of its own (its name `pattern#index`) with the ladder's lengths;
    None when its fixed parts do not fit an entry."""
    to_bytes = lambda text: samples.as_bytes(text, pattern.unicode)
    pumps = [Pump(to_bytes(p["before"]), to_bytes(p["pump"])) for p in candidate["pumps"]]
    try:
        attacked = with_attack(replace(pattern, lengths=None), "", pumps, to_bytes(candidate["suffix"]), "", None)
    except UsageError:
        return None
    variant = Variant(f"{pattern.name}{SEPARATOR}{index}", pattern.regex, attacked, False)
    return variant, [attacked.fixed + n for n in ladder(attacked.period)]


def measured(binary_path: Path, wanted: dict[str, tuple[Pattern, list[dict]]], nodes: dict[str, str],
             slow_ms: float) -> dict[str, list[dict]]:
    """pattern name -> its candidates with `points` ([pumped, ms]) and `over` (pumped length of a stuck
    match) from its `reference` engine instead of V8's, and `engine` naming it; a pattern its engine
    measured nothing of (it refused the regex) is left out."""
    plan: dict[str, list[tuple[Variant, list[int]]]] = {}
    for pattern, candidates in wanted.values():
        for i, candidate in enumerate(candidates):
            item = _as_variant(pattern, i, candidate)
            if item is not None:
                plan.setdefault(pattern.reference, []).append(item)
    if not plan:
        return {}
    fixed = {v.name: v.pattern.fixed for items in plan.values() for v, _ in items}
    found: dict[str, dict] = {}
    for row in triage.probe(binary_path, plan, nodes, slow_ms):
        params = row.params
        if row.metric != "match_ms":
            continue
        pumped = int(params["length"]) - fixed[params["pattern"]]
        mine = found.setdefault(params["pattern"], {"points": [], "over": None})
        if row.status == "ok":
            mine["points"].append([pumped, row.value])
        elif row.status == "timeout" and mine["over"] is None:
            mine["over"] = pumped
    out: dict[str, list[dict]] = {}
    for name, (pattern, candidates) in wanted.items():
        again = [found.get(f"{name}{SEPARATOR}{i}") for i in range(len(candidates))]
        if any(a and (a["points"] or a["over"]) for a in again):
            out[name] = [{**c, **(a or {"points": [], "over": None}), "engine": pattern.reference}
                         for c, a in zip(candidates, again)]
    return out


@dataclass
class OwnEngines:
    """attacks.analyse's `native`: which entries want their candidates measured on their own engine
    (a reference of this build that is not V8, whose probe found them), and that measurement."""
    build_dir: Path
    table: Engines
    available: list[str]            # the engines this build has
    node_paths: dict[str, str]
    slow_ms: float

    def wants(self, pattern: Pattern) -> bool:
        v8 = {self.table.implementation(e) for e in self.table.per_node_line()}  # the engines run per Node line
        return pattern.reference in self.available and self.table.implementation(pattern.reference) not in v8

    def measure(self, wanted: dict[str, tuple[Pattern, list[dict]]]) -> dict[str, list[dict]]:
        own = {name: w for name, w in wanted.items() if self.wants(w[0])}
        if not own:
            return {}
        print(f"stallbench: measuring the candidate attacks of {len(own)} regex(es) on their own engine ...",
              file=sys.stderr, flush=True)
        return measured(triage.binary(self.build_dir), own, self.node_paths, self.slow_ms)
