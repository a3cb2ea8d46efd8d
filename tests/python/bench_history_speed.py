"""How long `history` takes on a year of nights: a synthetic store of NIGHTS runs x SERIES series
(5 repetitions each, 2% spread; one series in 20 steps up by 10% somewhere), timed stage by stage
through the real code (store -> series -> change points -> page). A benchmark, not a test: run it
by hand,

    PYTHONPATH=scripts /usr/bin/python3 tests/python/bench_history_speed.py [NIGHTS SERIES]

and quote what it prints with the machine's load (it prints that too) and the CPU seconds beside the wall seconds."""
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row
from stallbench_lib.tracking import history_page, series as tracked, store
from stallbench_lib.tracking.comparison import Thresholds

FINGERPRINT = "bench0000000"
METRICS = 6


def _synthetic_store(path: Path, nights: int, series: int) -> None:
    rng = np.random.default_rng(2026)
    cells = series // METRICS
    steps = {i: int(rng.integers(nights // 4, nights)) for i in range(series) if i % 20 == 7}
    declarations = {"fam/bench": {f"m{j}_ms": {"unit": "ms", "better": "lower", "tracked": True, "min_effect_pct": 0}
                                  for j in range(METRICS)}}
    with store.Store(path) as db:
        for night in range(nights):
            run_id = f"night{night:04d}"
            rows = []
            for i in range(cells * METRICS):
                centre = 100 * (1.1 if i in steps and night >= steps[i] else 1.0)
                for rep, value in enumerate(rng.normal(centre, 2, 5)):
                    rows.append(Row(run_id, "fam", "bench", Params({"cell": i // METRICS}), rep, f"m{i % METRICS}_ms",
                                    float(value), "ms", "ok", ""))
            meta = {"run_id": run_id, "complete": True, "machine": {"fingerprint": FINGERPRINT},
                    "started_at": f"2026-{night:04d}", "git": {"commit": f"{night:040x}"}, "metrics": declarations}
            db.append(meta, rows)


def main(nights: int, series: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "history.sqlite"
        _synthetic_store(db_path, nights, series)
        load = os.getloadavg()[0]
        marks = [(time.monotonic(), time.process_time())]
        with store.Store(db_path) as db:
            runs = db.history(FINGERPRINT)
        marks.append((time.monotonic(), time.process_time()))
        found = tracked.build_series(runs, Thresholds(min_effect_pct=5.0))
        marks.append((time.monotonic(), time.process_time()))
        tracked.detect_all(found, 0.01)
        marks.append((time.monotonic(), time.process_time()))
        history_page.write(found, runs, f"machine {FINGERPRINT}", 0.01, tracked.DEFAULT_MIN_SEGMENT,
                           Path(tmp) / "page")
        marks.append((time.monotonic(), time.process_time()))
    stages = ("read the store", "build the series", "change points", "write the page (plots)")
    print(f"{nights} nights x {len(found)} series, {sum(len(s.change_points) for s in found)} change points found "
          f"({sum(1 for i in range(series) if i % 20 == 7)} steps planted); 1-minute load average {load:.1f} on "
          f"{os.cpu_count()} CPUs")
    # CPU seconds are what the work costs on a machine of its own; wall seconds include waiting for
    # the CPU while other work runs.
    for name, start, end in [*zip(stages, marks, marks[1:]), ("total", marks[0], marks[-1])]:
        print(f"  {name}: {end[0] - start[0]:.1f} s wall, {end[1] - start[1]:.1f} s CPU")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3])) if len(sys.argv) > 2 else main(365, 700)
