"""The shards of a `regex --scan DIR --shard K/N --group ID` joined by `stallbench merge` (which asks
every family's merge.py whether it `claims` a group) into ONE
scan run, as the unsplit scan writes it: triage.csv, escalation.csv and disagreements.csv the
shards' together, `regex` in meta.json the shards' (patterns, sample checks, answers judged,
censoring) in the order the scan found the regexes, and from them the classification, the
catalogue and the risky-first listing, computed as the scan computes them. The run directory
itself (results.csv, the group, completeness) is group_merge's.

Every shard parsed the whole tree, so each knows every regex's name: a regex no present shard
measured (its shard missing) is named by count in the listing's first line, and the run is
incomplete, naming the shard. The shards' files are read from their directories: the store keeps
results.csv's rows, not a scan's triage and escalation."""
import copy
import csv
import io
from dataclasses import replace
from pathlib import Path

from ... import group_merge, rundir
from ...atomic import atomic_write
from ...errors import UsageError
from ...tidy import read_csv, write_csv
from . import catalogue_file, outcome, patterns, summary, triage, verify
from .agreement import CSV_COLUMNS
from .curves import curves
from .engines import Engines

MEASURED_FILES = (triage.TRIAGE_FILE, triage.ESCALATION_FILE)
CATALOGUE = "catalogue.toml"
CLASSIFICATION = "classification.csv"
STORED = False  # a merged scan is not appended to the history store: a scan is no night


def claims(parts: list[group_merge.Part]) -> bool:
    """Whether `stallbench merge` leaves these shards to this module: they are `regex --scan`'s."""
    return any(((p.meta.get("regex") or {}).get("scan")) for p in parts)


def _check(parts: list[group_merge.Part]) -> None:
    """Directories, not the store; the same engines in every shard."""
    stored = [p for p in parts if p.raw is None]
    if stored:
        raise UsageError(f"merge: {stored[0].label} is a regex --scan shard read from the store, which keeps none of a "
                         "scan's triage.csv and escalation.csv: give the shards' run directories")
    engines = {tuple(p.meta["regex"]["engines"]) for p in parts}
    if len(engines) > 1:
        raise UsageError("merge: the scan's shards ran different engines: "
                         + "; ".join(f"{p.label}: {','.join(p.meta['regex']['engines'])}" for p in parts))


def _in_order(order: list[str], found: dict) -> dict:
    rank = {name: i for i, name in enumerate(order)}
    return dict(sorted(found.items(), key=lambda item: rank.get(item[0], len(rank))))


def _overrun(metas: list[dict]) -> dict:
    """The slowest match cell over the shards (with --no-triage, cells ran), the counts added up."""
    found = [m["overrun"] for m in metas if (m.get("overrun") or {}).get("max_ratio") is not None]
    if not found:
        return {"max_ratio": None, "cells_over_1_2": 0}
    return {**max(found, key=lambda o: o["max_ratio"]), "cells_over_1_2": sum(o["cells_over_1_2"] for o in found),
            "cells": sum(o["cells"] for o in found)}


def regex_meta(parts: list[group_merge.Part]) -> dict:
    """meta.json's `regex` of the merged scan: the first shard's settings, the shards' findings."""
    metas = [p.meta["regex"] for p in sorted(parts, key=lambda p: p.shard["index"])]
    merged = copy.deepcopy(metas[0])
    order = merged["scan"]["regexes"]
    for key in ("patterns", "sample_check", "recheck", "cached"):
        merged[key] = _in_order(order, {k: v for m in metas for k, v in (m.get(key) or {}).items()})
    merged["notes"] = list(dict.fromkeys(n for m in metas for n in m.get("notes", [])))
    for key in ("censoring", "refined"):
        merged[key] = [item for m in metas for item in m.get(key, [])]
    judged = [m.get("correctness") or {} for m in metas]
    merged["correctness"] = {"disagreements": sum(c.get("disagreements", 0) for c in judged),
                             "counterexamples": [x for c in judged for x in c.get("counterexamples", [])],
                             "wrong_answers": {k: v for c in judged for k, v in (c.get("wrong_answers") or {}).items()},
                             "unresolved": [x for c in judged for x in c.get("unresolved", [])]}
    merged["overrun"] = _overrun(metas)
    return merged


def _disagreements(parts: list[group_merge.Part]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for p in parts:
        path = Path(p.where) / outcome.DISAGREEMENTS
        if path.exists():
            with open(path, newline="", encoding="utf-8") as f:
                writer.writerows(list(csv.reader(f))[1:])
    return out.getvalue()


def _catalogue(parts: list[group_merge.Part], order: list[str]) -> list[patterns.Pattern]:
    """The shards' resolved catalogues as one, in the scan's order."""
    found = {p.name: p for part in parts if (Path(part.where) / CATALOGUE).exists()
             for p in patterns.load(Path(part.where) / CATALOGUE)}
    return list(_in_order(order, found).values())


def _listing(meta: dict, resolved: list[patterns.Pattern], found_curves) -> str:
    """The risky-first listing, as the scan prints it; first, what an incomplete group leaves out."""
    regex = meta["regex"]
    names = [v.name for v in patterns.variants(resolved)]
    cached = regex.get("cached") or {}
    verdicts = {name: entry["verdicts"] for name, entry in cached.items()}
    text = summary.risk_text(summary.risk_rows(found_curves, names, regex["engines"], verdicts),
                             outcome.described(resolved, cached))
    if meta["complete"]:
        return text
    missing = [n for n in regex["scan"]["regexes"] if n not in regex["patterns"] and n not in cached]
    return (f"INCOMPLETE ({meta['incomplete_because']}): {len(missing)} of {len(regex['scan']['regexes'])} regexes "
            f"found are not in this listing\n{text}")


def write(parts: list[group_merge.Part], meta: dict, out_parent: Path, run_id: str) -> tuple[rundir.RunDir, str]:
    """The merged scan run directory out_parent/run_id, and what `merge` prints: the risky-first
    listing and where the catalogue is."""
    _check(parts)
    parts = sorted(parts, key=lambda p: p.shard["index"])
    meta = {**meta, "regex": regex_meta(parts)}
    if any(p.meta.get("reported_families") for p in parts):
        meta["reported_families"] = ["regex"]
    order = meta["regex"]["scan"]["regexes"]
    run = group_merge.write(parts, meta, out_parent, run_id)
    measured = []
    for name in MEASURED_FILES:
        rows = [replace(r, run_id=run.run_id) for p in parts if (Path(p.where) / name).exists()
                for r in read_csv(Path(p.where) / name)]
        write_csv(run.path / name, rows)
        measured += rows
    atomic_write(run.path / outcome.DISAGREEMENTS, _disagreements(parts))
    regex = meta["regex"]
    resolved = _catalogue(parts, order)
    offsets = {v.name: v.pattern.fixed for v in patterns.variants(resolved)}
    fallbacks, table = verify.fallbacks(regex["sample_check"]), Engines.from_meta(meta)
    found_curves = curves(run.rows + measured, offsets, regex["correctness"]["wrong_answers"], fallbacks,
                          regex["correctness"]["unresolved"], patterns.doubts({p.name: p.attack for p in resolved}),
                          table.automata(), table.measured_as(fallbacks))
    atomic_write(run.path / CLASSIFICATION, summary.classification_csv(found_curves))
    atomic_write(run.path / CATALOGUE, catalogue_file.to_toml(resolved, f"Patterns from: {regex['patterns_file']}"))
    return run, (f"{_listing(meta, resolved, found_curves)}\n"
                 f"catalogue: {run.path / CATALOGUE}  ({CLASSIFICATION} beside it)")
