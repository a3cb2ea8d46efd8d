"""Synthetic run directories for the tracking tests: results.csv and meta.json written the way a
real run writes them, with values drawn from seeded generators so every test sees the same data."""
import json
import random
from pathlib import Path

from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row, write_csv

MACHINE = {"fingerprint": "aaaaaaaaaaaa", "cpu_model": "Test CPU", "cores": 2, "memory_gib": 24}
DECLARATIONS = {"fam/bench": {
    "time_ms": {"unit": "ms", "better": "lower", "tracked": True, "min_effect_pct": 0.0},
    "rate_mb_s": {"unit": "MB/s", "better": "higher", "tracked": True, "min_effect_pct": 0.0},
    "cores": {"unit": "count", "better": "lower", "tracked": False, "min_effect_pct": 0.0},
}}


def noisy(centre: float, n: int, cv: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.gauss(centre, centre * cv) for _ in range(n)]


def write_run(path: Path, values: dict[tuple[str, str], list[float]], machine: dict | None = None,
              commit: str = "1" * 40, started: str = "2026-01-01T00:00:00+00:00",
              failures: dict[tuple[str, str], str] | None = None, meta_extra: dict | None = None) -> Path:
    """values: (params, metric) -> one value per repetition; failures: (params, metric) -> status."""
    run_id = path.name
    rows = []
    for (params, metric), reps in values.items():
        unit = DECLARATIONS["fam/bench"].get(metric, {"unit": "ms"})["unit"]
        for i, v in enumerate(reps):
            rows.append(Row(run_id, "fam", "bench", Params.parse(params), i, metric, v, unit, "ok", ""))
    for (params, metric), status in (failures or {}).items():
        unit = DECLARATIONS["fam/bench"].get(metric, {"unit": "ms"})["unit"]
        rows.append(Row(run_id, "fam", "bench", Params.parse(params), 0, metric, None, unit, status, f"{status} in test"))
    path.mkdir(parents=True)
    write_csv(path / "results.csv", rows)
    meta = {"run_id": run_id, "complete": True, "machine": machine or MACHINE, "metrics": DECLARATIONS,
            "git": {"commit": commit, "short": commit[:8]}, "started_at": started, **(meta_extra or {})}
    (path / "meta.json").write_text(json.dumps(meta))
    return path
