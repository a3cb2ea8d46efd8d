"""A sharded `ab` judged as one: each shard paired BASE and CURRENT of its cells on its own machine
(`ab --shard K/N --group ID`); here both sides' shards are merged into one run each
(group_merge.py) and every cell's per-round ratios are judged together, so the Benjamini–Hochberg
correction runs over every metric of the group — corrections per shard would let each of N shards
spend alpha, and multiply the false-alarm rate of the night by up to N. The exit code is this one:
1 when anything regressed, 2 when a shard is missing or unfinished (the night was not all judged),
4 when nothing regressed but a gated metric could not see its minimum effect (power.py)."""
from collections import defaultdict
from pathlib import Path

from .. import group_merge
from ..errors import UsageError
from . import ab_report, ab_rounds, ab_session, ab_verdict, geomean, power, samples
from .ab_rounds import Pair
from .comparison import Thresholds


def limits_of(parts: list[group_merge.Part]) -> dict:
    """The --alpha and --min-effect every shard ran with (ab records them): they must agree."""
    found = {repr((p.meta.get("ab") or {}).get("limits")) for p in parts}
    if len(found) != 1:
        raise UsageError("merge: the ab shards ran with different --alpha or --min-effect: "
                         + "; ".join(f"{p.label}: {(p.meta.get('ab') or {}).get('limits')}" for p in parts))
    return (parts[0].meta.get("ab") or {}).get("limits") or {}


def pairs_of(rows: dict[str, list]) -> list[Pair]:
    """One pair per cell both merged sides have, with each side's rows (one repetition per round)."""
    by_cell: dict[str, dict] = {role: defaultdict(list) for role in ab_rounds.ROLES}
    for role in ab_rounds.ROLES:
        for r in rows[role]:
            by_cell[role][samples.key_of(r)[:3]].append(r)
    common = sorted(by_cell["base"].keys() & by_cell["current"].keys())
    return [Pair(key, {}, i, rows={role: by_cell[role][key] for role in ab_rounds.ROLES}) for i, key in enumerate(common)]


def judge(group: str, parts: dict[str, list[group_merge.Part]], limits: Thresholds, out: Path) -> tuple[int, str]:
    """Merges both sides into out/base and out/current, writes ab.md/.csv/.json over the whole
    group into `out`; returns the exit code and ab.md's text."""
    counts = {role: group_merge.check(parts[role]) for role in ab_rounds.ROLES}
    digests = {p.shard.get("digest") for role in ab_rounds.ROLES for p in parts[role]}
    if len(set(counts.values())) != 1 or len(digests) != 1:
        raise UsageError("merge: the BASE and CURRENT shards of the group were split different ways")
    count = counts["current"]
    runs, notes = {}, []
    for role in ab_rounds.ROLES:
        meta = group_merge.merged_meta(group, parts[role], count)
        runs[role] = group_merge.write(parts[role], meta, out / role, f"{group}-{role}")
    incomplete = runs["current"].meta.get("incomplete_because") or runs["base"].meta.get("incomplete_because")
    if incomplete:
        notes.append(f"**the group is incomplete: {incomplete}**; its cells are not judged, so the night is not "
                     "(exit 2)")
    pairs = pairs_of({role: runs[role].rows for role in ab_rounds.ROLES})
    declarations = {**runs["base"].meta.get("metrics", {}), **runs["current"].meta.get("metrics", {})}
    notes.append(f"merged from {count} shards of group `{group}` measured on "
                 f"{runs['current'].meta['group']['machines']} machine(s), each pairing BASE and CURRENT of its "
                 "cells on its own; q is corrected over every metric of the group")
    for s in runs["current"].meta["group"]["shards"]:
        m = s["machine"]
        notes.append(f"shard {s['index']}/{count} ({s['run_id']}): {s['cells']} cells on {m.get('hostname')} "
                     f"(`{m.get('fingerprint')}`)")
    outcome, per_round = ab_session.verdicts(pairs, declarations, limits, notes)
    ab_meta = [p.meta.get("ab") or {} for p in parts["current"]]
    instructions_gate = any(m.get("instructions_gate") for m in ab_meta)
    gating = ab_verdict.gate(outcome, instructions_gate)
    blind = power.blind(ab_verdict.gated(outcome, instructions_gate), limits.alpha)
    code = 2 if incomplete else power.exit_code(bool(gating), blind)
    seed = min((m.get("seed") or 0) for m in ab_meta)
    means = {"geomean": geomean.summarise_paired(outcome.comparisons, per_round, seed),
             "geomean_instructions": geomean.summarise(outcome.comparisons, instructions=True)}
    started = [p.meta.get("started_at") for p in parts["current"]]
    summary = {
        "exit": code, "verdict": "incomplete" if incomplete else power.verdict(bool(gating), blind),
        "inconclusive": blind, "instructions_gate": instructions_gate, "alpha": limits.alpha, "tested": sum(1 for c in outcome.comparisons if c.q_value is not None),
        "pairs": len(pairs), "rounds": max((m.get("rounds") or 0) for m in ab_meta),
        "min_rounds": min((m.get("min_rounds") or 0) for m in ab_meta),
        "max_rounds": max((m.get("max_rounds") or 0) for m in ab_meta), "budget_minutes": 0,
        "budget_spent": any(m.get("budget_spent") for m in ab_meta), "minutes": 0.0, "seed": seed,
        "inject": ab_meta[0].get("inject"), "duet": ab_meta[0].get("duet"),
        "group": {"id": group, "count": count, "complete": not incomplete, "started": sorted(filter(None, started))},
        "gating": ["/".join(c.key) for c in gating],
        **{role: {"given": (runs[role].meta.get("ab") or {}).get("given"),
                  "commit": (runs[role].meta.get("git") or {}).get("commit"),
                  "build": (runs[role].meta.get("ab") or {}).get("given") or "",
                  "run_id": runs[role].run_id, "run_dir": str(runs[role].path)} for role in ab_rounds.ROLES}}
    return code, ab_report.write(out, outcome, summary, runs, means)
