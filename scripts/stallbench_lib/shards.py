"""Splitting a plan across N machines: `--shard K/N` takes the K-th of N disjoint parts, the same
part on every machine and every night, so an engine that starts N copies with an index (a CI
matrix, a Kubernetes Indexed Job) needs nothing from us but the index.

The plan is cut into *units* that must run on one machine (a benchmark's cells of one process, an
`ab` pair, one regex pattern with all its engines), each with its expected seconds. Units are dealt
out longest first (LPT: each to the least-loaded shard, ties to the lowest index), which keeps every
shard within a few percent of total/N unless one unit alone is longer. Given the same units and the
same estimates every shard computes the same partition; the estimates are quantised to powers of
two so that night-to-night drift in the stored durations rarely moves a unit, and the partition's
digest is recorded in each shard so that the merge can refuse shards that disagreed."""
import hashlib
import json
import math
from dataclasses import dataclass

from . import numbers
from .errors import UsageError

DEFAULT_SECONDS = 10.0  # a unit with no stored duration and no declared timeout
SMALLEST_SECONDS = 1 / 64  # estimates below this are all the same: a process start


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as users count them (JOB_COMPLETION_INDEX + 1, matrix 1..N)
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse(text: str) -> Shard:
    """'2/4' -> Shard(2, 4); anything else is one line (exit 2) saying what is valid."""
    k, slash, n = (text or "").partition("/")
    index, count = numbers.integer(k), numbers.integer(n)
    if not slash or index is None or count is None or not 1 <= index <= count:
        raise UsageError(f"--shard {text!r}: expected K/N with 1 <= K <= N (e.g. --shard 2/4 for the second of four)")
    return Shard(index, count)


@dataclass(frozen=True)
class Unit:
    key: str  # stable across machines: what it is, not where it sits in a list
    seconds: float  # expected, already quantised


def quantise(seconds: float) -> float:
    """The nearest power of two (in log scale), at least SMALLEST_SECONDS: a cell measured at 3.1 s
    one night and 2.9 s the next is 4 s both nights."""
    if not seconds or seconds <= SMALLEST_SECONDS or not math.isfinite(seconds):
        return SMALLEST_SECONDS
    return 2.0 ** round(math.log2(seconds))


def assign(units: list[Unit], count: int) -> list[list[Unit]]:
    """The units of each of `count` shards (index 0 is shard 1): longest first, each to the
    least-loaded shard, ties to the lowest index. Deterministic in the units given, whatever their order."""
    shards: list[list[Unit]] = [[] for _ in range(count)]
    loads = [0.0] * count
    for unit in sorted(units, key=lambda u: (-u.seconds, u.key)):
        lightest = min(range(count), key=lambda i: (loads[i], i))
        shards[lightest].append(unit)
        loads[lightest] += unit.seconds
    return shards


def loads(shards: list[list[Unit]]) -> list[float]:
    return [sum(u.seconds for u in units) for units in shards]


def digest(shards: list[list[Unit]]) -> str:
    """What every shard of a group must agree on: which unit went where, with the estimates used."""
    text = json.dumps([[[u.key, u.seconds] for u in sorted(units, key=lambda u: u.key)] for units in shards])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def take(units: list[Unit], shard: Shard) -> tuple[set[str], dict]:
    """The keys of the units shard K runs, and what its meta.json records about the partition."""
    if len({u.key for u in units}) != len(units):
        raise ValueError("shards.take: unit keys must be unique")
    shards = assign(units, shard.count)
    mine = shards[shard.index - 1]
    return {u.key for u in mine}, {
        "index": shard.index, "count": shard.count, "digest": digest(shards),
        "units": sorted(u.key for u in mine), "expected_s": round(sum(u.seconds for u in mine), 3),
        "expected_total_s": round(sum(u.seconds for u in units), 3),
    }
