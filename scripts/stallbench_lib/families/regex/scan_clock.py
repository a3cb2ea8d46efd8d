"""Where a --scan's time goes: the wall time of each step (listing, attacks, sample check, triage,
escalation, cells, report) and, inside the triage and the escalation, each engine's busy time (its
probe process's life; engines run side by side, one per core, so these add up to more than the
step), printed at the end of the scan as its time split and kept in meta.json (`regex.time_split`).
The same clock gives the progress lines their estimate of the time left."""
import sys
import time
from contextlib import contextmanager


def minutes(seconds: float) -> str:
    """62.4 -> '1 min 2 s', 8.26 -> '8.3 s'."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60} s"


class Clock:
    def __init__(self):
        self.started = time.monotonic()
        self.steps: dict[str, float] = {}
        self.engines: dict[str, dict[str, float]] = {}   # step -> engine -> busy seconds
        self.slowest: dict[str, dict[str, float]] = {}   # step -> its SLOWEST items (regexes) -> seconds

    @contextmanager
    def step(self, name: str):
        start = time.monotonic()
        try:
            yield
        finally:
            self.steps[name] = self.steps.get(name, 0.0) + time.monotonic() - start

    def engine(self, step: str, engine: str, seconds: float) -> None:
        per = self.engines.setdefault(step, {})
        per[engine] = per.get(engine, 0.0) + seconds

    def items(self, step: str, seconds: dict[str, float]) -> None:
        """What each item of a step cost (a regex's analysis): the SLOWEST are kept, to say where it went."""
        self.slowest[step] = dict(sorted(seconds.items(), key=lambda item: -item[1])[:SLOWEST])

    def meta(self) -> dict:
        return {"total_s": round(time.monotonic() - self.started, 1),
                "steps_s": {k: round(v, 1) for k, v in self.steps.items()},
                "engines_busy_s": {s: {e: round(v, 1) for e, v in per.items()} for s, per in self.engines.items()},
                "slowest_s": {s: {k: round(v, 1) for k, v in per.items()} for s, per in self.slowest.items()}}

    def text(self) -> str:
        """One line per step, the probe steps with their engines' busy times, slowest first."""
        lines = [f"time split ({minutes(time.monotonic() - self.started)} in all):"]
        for name, seconds in self.steps.items():
            per = sorted(self.engines.get(name, {}).items(), key=lambda item: -item[1])
            busy = "; busy: " + ", ".join(f"{e} {minutes(s)}" for e, s in per) if per else ""
            slow = self.slowest.get(name)
            busy += "; slowest: " + ", ".join(f"{k} {minutes(s)}" for k, s in slow.items()) if slow else ""
            lines.append(f"  {name}: {minutes(seconds)}{busy}")
        return "\n".join(lines)


SLOWEST = 3    # items named per step in the time split

SETTLED = 0.02  # the share done before the rate says anything about the time left


class Progress:
    """'triage: 1,204 of 13,395 regex x engine pairs (9%), about 4 min 10 s left', at most every
    `every_s` seconds, the estimate from the rate so far."""

    def __init__(self, step: str, total: int, unit: str, every_s: float = 15.0):
        self.step, self.total, self.unit, self.every_s = step, total, unit, every_s
        self.done, self.started, self.said = 0, time.monotonic(), time.monotonic()

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.said < self.every_s or self.done >= self.total or self.done < self.total * SETTLED:
            return
        self.said = now
        left = (now - self.started) / self.done * (self.total - self.done)
        print(f"stallbench: {self.step}: {self.done:,} of {self.total:,} {self.unit} ({100 * self.done // self.total}%), "
              f"about {minutes(left)} left", file=sys.stderr, flush=True)
