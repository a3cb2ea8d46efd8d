"""What a `--shard K/N` plan expects each cell to take: the durations earlier runs in the history
store recorded (meta.json's cell_seconds), read the same on every shard (shard_plan.py says why)."""
import os
import sys
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from ..errors import UsageError
from ..medians import median
from ..parameters import Params
from . import store

RECENT_RUNS = 20  # how many stored runs the durations are read from


def start_of_today() -> str:
    """00:00 UTC today, as meta.json's started_at spells a time."""
    return datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0).isoformat(timespec="seconds")


def cell_seconds(store_option: str | None, group: str | None, before: str | None = None) -> dict[str, float]:
    """Cell key -> median seconds per repetition over the latest stored runs started before
    `before` (default: today, UTC) outside `group`. An unreadable or absent store gives none (the
    declared timeouts then decide)."""
    where = store.location(store_option)
    if not store_option and not os.environ.get(store.ENVIRONMENT) and not Path(where).exists():
        return {}
    try:
        with store.Store(where) as db:
            metas = db.recent_metas(RECENT_RUNS, before or start_of_today())
    except UsageError as e:
        print(f"stallbench: --shard: no stored durations ({e}); the declared timeouts decide", file=sys.stderr)
        return {}
    seen: dict[str, list[float]] = defaultdict(list)
    for meta in metas:
        if group is not None and group_of(meta) == group:
            continue
        for key, seconds in (meta.get("cell_seconds") or {}).items():
            seen[_as_today(key)].append(float(seconds))
    return {key: median(values) for key, values in seen.items()}


def _as_today(key: str) -> str:
    """A cell key ('family/benchmark k=v;...', plan.Cell.key) in today's spelling of its parameters:
    a run stored before protocol 5 wrote a Node cell's line inside its value (Params.parse)."""
    name, _, params = key.partition(" ")
    try:
        return f"{name} {Params.parse(params)}"
    except ValueError:
        return key


def group_of(meta: dict) -> str | None:
    """The group a run belongs to: a shard's, or the one a merged run was made from."""
    return (meta.get("shard") or {}).get("group") or (meta.get("group") or {}).get("id")
