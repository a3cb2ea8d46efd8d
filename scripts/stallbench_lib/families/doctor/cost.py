"""What the pool probe costs a program: the same program at the same load with and without the
probe, in paired rounds (each round starts it fresh once without and once with, in alternating
order: off-on, on-off, ...), so slow drift of a shared machine falls on both sides alike. Each
round gives the ratio with/without of request latency, throughput and the program's CPU; the
answer is the median ratio over the rounds with its range. Before the load, each side also sits idle
for a few seconds, and the program's CPU then (its whole process group, from /proc) is the probe's
own cost with nothing else to hide it: its timer and its canaries. With an exporter
(stallbench_lib/probe/exporter_cost.py), the side with the probe also runs it, scraped or exported every second."""
import dataclasses
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ...medians import median
from ...app import program as app, process_group
from ...probe import exporter_cost
from ... import paths

IDLE_S = 5
COMPARED = ("idle_cpu_ms_per_s", "latency_p50_ms", "latency_p99_ms", "throughput_per_s", "app_cpu_util", "app_rss_peak_mb")


def idle_cpu_ms_per_s(running: app.RunningApp) -> float:
    start, cpu = time.monotonic(), process_group.cpu_seconds(running.proc.pid)
    time.sleep(IDLE_S)
    return (process_group.cpu_seconds(running.proc.pid) - cpu) * 1000 / (time.monotonic() - start)


@dataclass
class Round:
    index: int
    without: dict[str, float]
    with_probe: dict[str, float]


def _side(target: app.AppTarget, pool: int, rate: float, duration_s: int, ready_timeout_s: float,
          probe: app.Probe | None, exporter: str | None, load_node, seed: int) -> dict[str, float]:
    """One side of a round: idle, then the load (the round's moments of arrival, the same on both
    sides); with the exporter's scraper running, if there is one."""
    with tempfile.TemporaryDirectory(prefix="stallbench-exporter-") as scratch:
        port_file = Path(scratch) / "port"
        if probe and exporter:
            probe = dataclasses.replace(probe, also_require=(exporter_cost.preload(paths.build_dir()),),
                                        env=tuple(exporter_cost.environment(exporter, port_file).items()))
        running = app.RunningApp(target, pool, ready_timeout_s, probe)
        scraper = exporter_cost.Scraper(port_file) if probe and exporter == "prometheus" else None
        try:
            idle = idle_cpu_ms_per_s(running)
            found = {"idle_cpu_ms_per_s": idle, **app.drive(running, load_node, rate, duration_s, seed=seed).metrics}
        finally:
            if scraper:
                scraper.stop()
            running.stop()
    if scraper and not scraper.ok:
        raise RuntimeError(f"the exporter's /metrics never answered ({scraper.failed} scrapes failed)")
    return found


def measure(target: app.AppTarget, pool: int, rate: float, duration_s: int, rounds: int, ready_timeout_s: float,
            probe: app.Probe, exporter: str | None = None) -> list[Round]:
    load_node = app.load_generator_node()
    found = []
    with_what = f"the probe and its {exporter} exporter" if exporter else "the probe"
    for index in range(rounds):
        sides = {}
        for probed in ((False, True) if index % 2 == 0 else (True, False)):
            print(f"[{index + 1}/{rounds}] {'with' if probed else 'without'} {with_what} · {duration_s} s at {rate:g}/s",
                  file=sys.stderr, flush=True)
            sides[probed] = _side(target, pool, rate, duration_s, ready_timeout_s, probe if probed else None, exporter,
                                  load_node, seed=index + 1)
        found.append(Round(index, sides[False], sides[True]))
    return found


@dataclass(frozen=True)
class Compared:
    """One metric with and without the probe, over the rounds: medians, and the per-round change as a
    difference (with - without) and as a ratio (with / without; None where without is 0, as an idle
    program's CPU in whole clock ticks can be)."""
    without: float
    with_probe: float
    difference: float
    ratio: float | None
    ratio_low: float | None
    ratio_high: float | None
    rounds: int


def summary(rounds: list[Round]) -> dict[str, Compared]:
    out = {}
    for metric in COMPARED:
        pairs = [(x.without[metric], x.with_probe[metric]) for x in rounds
                 if x.without.get(metric) is not None and x.with_probe.get(metric) is not None]
        if not pairs:
            continue
        ratios = [b / a for a, b in pairs if a > 0]
        out[metric] = Compared(median([a for a, _ in pairs]), median([b for _, b in pairs]),
                               median([b - a for a, b in pairs]), median(ratios) if ratios else None,
                               min(ratios, default=None), max(ratios, default=None), len(pairs))
    return out


def rounds_from_rows(rows) -> list[Round]:
    """The rounds of a probe-cost run read back from its rows (params probe=off|on, repetition = round)."""
    sides: dict[int, dict[str, dict[str, float]]] = {}
    for r in rows:
        if r.status == "ok":
            sides.setdefault(r.repetition, {}).setdefault(r.params.get("probe"), {})[r.metric] = r.value
    return [Round(i, s.get("off", {}), s.get("on", {})) for i, s in sorted(sides.items())]
