"""Tidy rows filed by their parameters, the one way sections group them: each distinct cell's
params under keys read from its parameters (`cells`), or each metric's ok values under
such a key (`values`). Everything keeps the rows' first-seen order; a caller sorts what it shows.
tests/python/test_tables.py checks that no other module of the report files rows itself."""
from typing import Callable, Hashable, Iterable

from ..parameters import Params

from ..tidy import Row

Key = Callable[[Params], Hashable]


def cells(rows: Iterable[Row], *keys: Key, benchmark: str | None = None) -> dict:
    """key1(p) -> key2(p) -> ... -> params, one level per key, for every distinct cell (of
    `benchmark` when given): `cells(rows, by_shape, by_parser)` is shape -> parser -> params."""
    if not keys:
        raise ValueError("cells() needs at least one key")
    grouped: dict = {}
    for p in dict.fromkeys(r.params for r in rows if benchmark is None or r.benchmark == benchmark):
        level = grouped
        for key in keys[:-1]:
            level = level.setdefault(key(p), {})
        level[keys[-1](p)] = p
    return grouped


def values(rows: Iterable[Row], key: Key, *, benchmark: str | None = None, metrics=None,
           per_repetition: bool = False) -> dict:
    """key(p) -> metric -> every ok value, in row order (of `benchmark` and `metrics` when given);
    with `per_repetition` the key is (key(p), repetition). A row whose key is None is left out."""
    wanted = None if metrics is None else set(metrics)
    found: dict = {}
    for r in rows:
        if r.status != "ok" or benchmark not in (None, r.benchmark) or (wanted is not None and r.metric not in wanted):
            continue
        k = key(r.params)
        if k is None:
            continue
        if per_repetition:
            k = (k, r.repetition)
        found.setdefault(k, {}).setdefault(r.metric, []).append(r.value)
    return found
