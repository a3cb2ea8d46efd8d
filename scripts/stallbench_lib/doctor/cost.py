"""What the pool probe costs a program: the same program at the same load with and without the
probe, in paired rounds (each round starts it fresh once without and once with, in alternating
order: off-on, on-off, ...), so slow drift of a shared machine falls on both sides alike. Each
round gives the ratio with/without of request latency, throughput and the program's CPU; the
answer is the median ratio over the rounds with its range."""
import sys
from dataclasses import dataclass

from ..medians import median
from ..pool_sweep import app, app_run
from .. import node as nodejs

COMPARED = ("latency_p50_ms", "latency_p99_ms", "throughput_per_s", "app_cpu_util", "app_rss_peak_mb")


@dataclass
class Round:
    index: int
    without: dict[str, float]
    with_probe: dict[str, float]

    def ratio(self, metric: str) -> float | None:
        a, b = self.without.get(metric), self.with_probe.get(metric)
        return b / a if a and b is not None else None


def measure(target: app.AppTarget, pool: int, rate: float, duration_s: int, rounds: int, ready_timeout_s: float,
            probe: app.Probe) -> list[Round]:
    load_node = app_run.load_generator_node()
    modules = nodejs.tool_modules("load")
    found = []
    for index in range(rounds):
        sides = {}
        for probed in ((False, True) if index % 2 == 0 else (True, False)):
            print(f"[{index + 1}/{rounds}] {'with' if probed else 'without'} the probe · {duration_s} s at {rate:g}/s",
                  file=sys.stderr, flush=True)
            running = app.RunningApp(target, pool, ready_timeout_s, probe if probed else None)
            try:
                sides[probed] = app.drive(running, load_node, modules, rate, duration_s).metrics
            finally:
                running.stop()
        found.append(Round(index, sides[False], sides[True]))
    return found


def summary(rounds: list[Round]) -> dict[str, tuple[float, float, float]]:
    """metric -> (median ratio with/without, lowest, highest) over the rounds."""
    out = {}
    for metric in COMPARED:
        ratios = [r for r in (x.ratio(metric) for x in rounds) if r is not None]
        if ratios:
            out[metric] = (median(ratios), min(ratios), max(ratios))
    return out
