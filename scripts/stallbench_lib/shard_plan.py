"""A plan's cells cut for `--shard K/N` (the partition itself is shards.py's): the units that must
stay on one machine, their expected seconds, and this shard's cells.

For `run` and `ab` the unit is the cell: each cell runs in processes of its own (runner.py), all
its repetitions or rounds on one machine (an `ab` cell's BASE and CURRENT with it, paired there),
and nothing is shared between two cells' processes. (Keeping a benchmark's cells of one
per-process value together was tried: with a benchmark that has no per-process parameter whole,
the nightly plan had 31 units, and 8 shards came out at 1.32 times the even share.)

Expected seconds come from earlier runs in the history store (tracking/stored_durations.py:
meta.json's cell_seconds, per repetition, median over the latest runs started before today, UTC),
which the command reads and hands here, never from today's runs nor
from the group's: a sibling that finished first, or any other run stored while the shards plan,
would change the estimates of those still planning. (A group whose shards start on both sides of
midnight may still read different runs; the merge then refuses it, naming the shards whose
partition differs.) A cell no earlier run measured counts its benchmark's declared timeout per
repetition. Every shard must read the same durations:
point all of them at one store (--store, $STALLBENCH_STORE), or at none — a CI runner with a fresh
checkout has no results/history.sqlite, and then the timeouts make the partition the same everywhere."""
import re
from datetime import datetime, timezone
from collections import defaultdict
from collections.abc import Callable, Iterable

from . import numbers, shards
from .errors import UsageError
from .plan import Cell

def units(items: Iterable, unit_key: Callable, seconds: Callable) -> tuple[list[shards.Unit], dict[str, list]]:
    """The items grouped into units by `unit_key`, each unit's expected seconds the quantised sum of
    its items' `seconds`; also unit key -> its items, in plan order."""
    members: dict[str, list] = defaultdict(list)
    for item in items:
        members[unit_key(item)].append(item)
    found = [shards.Unit(key, shards.quantise(sum(seconds(i) for i in group))) for key, group in members.items()]
    return found, members


def cell_seconds(durations: dict[str, float], repetitions: int) -> Callable[[Cell], float]:
    """A cell's expected seconds: measured per repetition when stored, else its declared timeout."""
    def expected(cell: Cell) -> float:
        per_repetition = durations.get(cell.key) or cell.benchmark.timeout_s or shards.DEFAULT_SECONDS
        return per_repetition * repetitions
    return expected


def split(items: list, key: Callable, seconds: Callable, shard: shards.Shard, group: str) -> tuple[list, dict]:
    """This shard's items (units by `key`, expected `seconds` each), in the order given, and the
    `shard` record meta.json keeps (index, count, group, the partition's digest, its units)."""
    found, members = units(items, key, seconds)
    mine, record = shards.take(found, shard)
    chosen = [item for k in members if k in mine for item in members[k]]
    return chosen, {**record, "group": group, "cells": len(chosen)}


def split_cells(cells: list[Cell], shard: shards.Shard, group: str, repetitions: int,
                durations: dict[str, float]) -> tuple[list[Cell], dict]:
    """`run`'s part: a unit per cell."""
    chosen, record = split(cells, lambda c: c.key, cell_seconds(durations, repetitions), shard, group)
    return chosen, {**record, "estimates": "stored" if durations else "declared timeouts"}


def split_pairs(shard: shards.Shard, group: str, rounds: int, durations: dict[str, float]) -> Callable:
    """`ab`'s part (ab_session.Focus.split): a unit per pair, BASE and CURRENT of a cell on one
    machine, each pair costing two processes per round."""
    def expected(pair) -> float:
        return 2 * cell_seconds(durations, rounds)(pair.cells["current"])

    def take(pairs: list) -> tuple[list, dict]:
        chosen, record = split(pairs, lambda p: p.cells["current"].key, expected, shard, group)
        return chosen, {**record, "estimates": "stored" if durations else "declared timeouts"}
    return take


def split_points(cells: list[Cell], shard: shards.Shard, group: str, repetitions: int) -> tuple[list[Cell], dict]:
    """`sweep-pool`'s part: a unit per point (one pool size of one mix in one runtime, all its
    repetitions), expected to take its declared seconds of arrivals per repetition (the `duration`
    parameter; a point without one, its benchmark's declared timeout). sweep-pool stores no runs,
    so there are no measured durations to read: the declared ones are the same on every machine."""
    def expected(cell: Cell) -> float:
        declared = numbers.decimal(cell.params.get("duration") or "")
        return (declared or cell.benchmark.timeout_s or shards.DEFAULT_SECONDS) * repetitions
    chosen, record = split(cells, lambda c: c.key, expected, shard, group)
    return chosen, {**record, "estimates": "declared durations"}


def durations_before(text: str | None) -> str | None:
    """--durations-before as started_at spells a time (UTC), or one line naming what is valid."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise UsageError(f"--durations-before {text!r}: expected an ISO 8601 time with its zone, "
                         "e.g. 2026-12-02T02:17:00Z or 2026-12-02T03:17:00+01:00")
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def check_group(shard: shards.Shard | None, group: str | None) -> None:
    """--shard and --group come together: siblings find each other by the group."""
    if shard is not None and not group:
        raise UsageError(f"--shard {shard} needs --group ID, shared by its sibling shards (the CI run id)")
    if group is not None and shard is None:
        raise UsageError("--group needs --shard K/N (a group is the shards of one plan)")
    if group is not None and not re.fullmatch(r"[A-Za-z0-9._-]+", group):
        raise UsageError(f"--group {group!r}: use letters, digits, '.', '_' and '-'")


def add_options(parser, what: str, balanced: str = "balanced by the durations in the history store",
                stored: bool = True) -> None:
    """--shard and --group; with `stored`, --durations-before too (for the commands whose estimates
    come from the history store)."""
    parser.add_argument("--shard", metavar="K/N", type=str,
                        help=f"run only the K-th of N disjoint parts of {what} (the same part on every machine; "
                             f"{balanced}); needs --group")
    if stored:
        parser.add_argument("--durations-before", metavar="TIME",
                            help="read the durations of stored runs started before TIME (ISO 8601 with a time "
                                 "zone, e.g. the CI run's start; default 00:00 UTC today): the same TIME for every "
                                 "shard makes them agree even across midnight")
    parser.add_argument("--group", metavar="ID",
                        help="the id the N shards share (the CI run id); `stallbench merge` joins them into one")
