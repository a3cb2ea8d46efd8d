"""The shards of a group (`run --shard K/N --group ID`, on N machines) joined into ONE ordinary run
directory, which report, compare, history, export and the store then read as any run.

results.csv is the union of the shards' rows (their run id made the merged run's); meta.json is the
first shard's, with the counts added up, the per-cell durations joined, and `group` listing every
shard with the machine that measured it and its cells. A group with a shard missing, or one that
did not finish, is merged all the same but marked `complete: false` with `incomplete_because`
naming the shard: compare refuses it (rundir.unfinished) and the report says so. Shards that
computed different partitions (they read different durations) are refused, named, rather than
merged into a plan with holes or overlaps."""
import copy
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from . import rundir
from .errors import UsageError
from .numbers import natural_order
from .tidy import Row


@dataclass
class Part:
    """One shard as found: its meta and rows, where it was read (a directory, or the store), its raw/."""
    meta: dict
    rows: list[Row]
    where: str
    raw: Path | None = None

    @property
    def shard(self) -> dict:
        return self.meta["shard"]

    @property
    def label(self) -> str:
        return f"shard {self.shard.get('index')}/{self.shard.get('count')} ({self.meta.get('run_id')}, {self.where})"


def parts_in(roots: list[Path], sides: tuple[str | None, ...] = (None,)) -> list[Part]:
    """Every shard run directory under `roots` (any depth), a plain run's or, for `ab` shards, the
    side's named in `sides` ('base', 'current'); None: runs that are no side of an ab."""
    found = []
    for root in roots:
        if not root.is_dir():
            raise UsageError(f"merge {root}: no such directory")
        for meta_path in sorted(root.rglob("meta.json")):
            path = meta_path.parent
            meta = rundir.read_meta(path)
            if not meta.get("shard") or (meta.get("ab") or {}).get("side") not in sides:
                continue
            rows = rundir.read_rows(path / "results.csv") if (path / "results.csv").exists() else []
            found.append(Part(meta, rows, str(path), path / "raw"))
    return found


def one_group(parts: list[Part], group: str | None) -> tuple[str, list[Part]]:
    """The group to merge: `group`, or the only one found (several: the user names one)."""
    groups = sorted({p.shard.get("group") for p in parts})
    if group is not None:
        chosen = [p for p in parts if p.shard.get("group") == group]
        if not chosen:
            raise UsageError(f"merge: no shard of group {group!r} found (groups found: {', '.join(groups) or 'none'})")
        return group, chosen
    if not groups:
        raise UsageError("merge: no shard found (run directories made with --shard K/N --group ID)")
    if len(groups) > 1:
        raise UsageError(f"merge: shards of {len(groups)} groups found ({', '.join(groups)}); choose one with --group ID")
    return groups[0], parts


def check(parts: list[Part]) -> int:
    """The group's shard count; UsageError when its shards disagree on the partition or a shard
    index is there twice (two machines ran the same part: the merge would count its cells twice)."""
    counts = sorted({p.shard.get("count") for p in parts})
    if len(counts) != 1:
        raise UsageError("merge: the shards were split different ways: "
                         + "; ".join(f"{p.label} is one of {p.shard.get('count')}" for p in parts))
    digests = {p.shard.get("digest") for p in parts}
    if len(digests) > 1:
        raise UsageError("merge: the shards computed different partitions (they read different durations: point every "
                         "shard at the same --store, or at none): "
                         + "; ".join(f"{p.label} digest {p.shard.get('digest')}" for p in parts))
    seen: dict[int, Part] = {}
    for p in parts:
        index = p.shard.get("index")
        if index in seen:
            raise UsageError(f"merge: shard {index}/{counts[0]} is there twice: {seen[index].label} and {p.label}")
        seen[index] = p
    return counts[0]


def _why_incomplete(parts: list[Part], count: int) -> list[str]:
    present = {p.shard["index"] for p in parts}
    reasons = [f"shard {k}/{count} missing" for k in range(1, count + 1) if k not in present]
    for p in parts:
        why = rundir.unfinished(p.meta)
        if why:
            reasons.append(f"shard {p.shard['index']}/{count} ({p.meta.get('run_id')}) {why}")
    return reasons


def _machine_of(meta: dict) -> dict:
    m = meta.get("machine") or {}
    return {k: m.get(k) for k in ("fingerprint", "hostname", "cpu_model", "cores", "memory_gib")}


def _counts(parts: list[Part]) -> dict:
    total: dict[str, int] = {}
    for p in parts:
        for key, n in (p.meta.get("cells") or {}).items():
            total[key] = total.get(key, 0) + n
    return total


def _per_process(parts: list[Part]) -> dict[str, list[str]]:
    values: dict[str, set[str]] = {}
    for p in parts:
        for name, vs in (p.meta.get("per_process") or {}).items():
            values.setdefault(name, set()).update(vs)
    return {name: sorted(vs, key=natural_order) for name, vs in sorted(values.items())}


def _load_average(parts: list[Part], which: str) -> list[float] | None:
    """The busiest shard's load average: what compare's conditions weigh, taken at its worst."""
    found = [p.meta["machine"][which] for p in parts if (p.meta.get("machine") or {}).get(which)]
    return [max(values) for values in zip(*found)] if found else None


def merged_meta(group: str, parts: list[Part], count: int) -> dict:
    """meta.json of the merged run: the first shard's settings, the group's counts and shards."""
    parts = sorted(parts, key=lambda p: p.shard["index"])
    meta = copy.deepcopy(parts[0].meta)
    for key in ("shard", "run_id", "interleave", "interrupted", "stopped"):
        meta.pop(key, None)
    reasons = _why_incomplete(parts, count)
    meta.update(
        started_at=min(p.meta.get("started_at") or "" for p in parts) or None,
        ended_at=max(p.meta.get("ended_at") or "" for p in parts) or None,
        complete=not reasons, cells=_counts(parts), per_process=_per_process(parts),
        cell_seconds={k: v for p in parts for k, v in (p.meta.get("cell_seconds") or {}).items()},
        group={"id": group, "count": count, "digest": parts[0].shard.get("digest"),
               "shards": [{"index": p.shard["index"], "run_id": p.meta.get("run_id"), "from": p.where,
                           "machine": _machine_of(p.meta), "cells": p.shard.get("cells"),
                           "units": p.shard.get("units", []), "complete": rundir.unfinished(p.meta) is None,
                           "started_at": p.meta.get("started_at"), "ended_at": p.meta.get("ended_at"),
                           "interleave": p.meta.get("interleave")} for p in parts],
               "machines": len({_machine_of(p.meta)["fingerprint"] for p in parts})})
    for which in ("load_average_start", "load_average_end"):
        if (load := _load_average(parts, which)) is not None:
            meta["machine"][which] = load
    if reasons:
        meta["incomplete_because"] = "; ".join(reasons)
    else:
        meta.pop("incomplete_because", None)
    return meta


def write(parts: list[Part], meta: dict, out_parent: Path, run_id: str) -> rundir.RunDir:
    """The merged run directory out_parent/run_id: meta.json, results.csv (the rows as the merged
    run's) and raw/ (the shards' files, linked where the filesystem allows)."""
    if (out_parent / run_id).exists():
        raise UsageError(f"merge: {out_parent / run_id} already exists (a group is merged once; remove it or "
                         "choose another --out)")
    run = rundir.RunDir.create(out_parent, run_id, meta)
    run.release_space()
    for part in sorted(parts, key=lambda p: p.shard["index"]):
        if part.raw and part.raw.is_dir():
            for path in sorted(part.raw.iterdir()):
                if path.is_file() and not (run.raw / path.name).exists():
                    _link_or_copy(path, run.raw / path.name)
    run.meta["complete"] = meta["complete"]
    run.add([replace(r, run_id=run.run_id) for p in parts for r in p.rows])
    run.save()
    return run


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
