"""The recommendation: the smallest pool size at which every class meets its latency target and
no CPU class loses throughput, with the reasons in words (core count, where CPU work saturates the
cores, where more threads only add contention), or, when no size qualifies, which class cannot
and why. For your own program measured with the pool probe (`sweep-pool --app`), the smallest size
at which its pool work stops waiting for threads (wait_choice.py), with the latency target checked
beside it."""
from dataclasses import dataclass, field
from statistics import median

from ...rendering.stats import fmt
from . import wait_choice
from .summary import CPU_CLASSES, Sweep
from .targets import MAX_UNFINISHED, Target, for_classes

THROUGHPUT_KEPT = 0.9  # a CPU class keeps its throughput when within 10% of its best size


@dataclass
class Verdict:
    pool: int
    problems: list[tuple[str, str]] = field(default_factory=list)  # (class, what is wrong); empty: it qualifies

    def text(self) -> str:
        return "; ".join(text for _, text in self.problems)


@dataclass
class Recommendation:
    size: int | None
    targets: dict[str, Target]
    verdicts: list[Verdict]
    reasons: list[str]
    none_because: str = "no size in the sweep meets every target"

    def headline(self) -> str:
        if self.size is None:
            return f"recommended pool size: none ({self.none_because})"
        return f"recommended pool size: {self.size}"


def _alone(sweep: Sweep) -> dict[str, float]:
    out = {}
    for cls in sweep.classes:
        values = [v for v in sweep.series(cls, "service_alone_ms") if v is not None]
        out[cls] = median(values) if values else 0.0
    return out


def _best_throughput(sweep: Sweep, cls: str) -> float:
    return max((v for v in sweep.series(cls, "throughput_per_s") if v is not None), default=0.0)


def _wait_or_service(cell) -> str:
    wait, service = cell.get("queue_wait_p99_ms"), cell.get("service_p99_ms")
    if wait is not None and service is None:  # an --app sweep with the probe: the pool's wait, measured inside
        thread = cell.get("queue_thread_wait_p99_ms")
        return (f"its pool work waited up to {fmt(thread)} ms for a thread (p99)" if thread is not None
                else f"its pool work waited up to {fmt(wait)} ms in the pool's queue (p99)")
    first = cell.get("pool_wait_p99_ms")
    if (wait is None or service is None) and first is not None:  # a Node mix's read or lookup: its canary's wait
        return (f"its first trip waited up to {fmt(first)} ms for a thread (p99); the rest of its wait cannot be told "
                "from its service in this runtime")
    if wait is None or service is None:  # without the probe: latency only
        return "latency only: where it waited was not measured (the pool probe was not in the program)"
    alone = cell.get("service_alone_ms") or 0
    if wait >= service:
        return f"mostly queue wait ({fmt(wait)} ms at p99): it waits for a thread behind other pool work"
    stretch = f", {service / alone:.1f}× its alone time" if alone else ""
    return f"mostly service ({fmt(service)} ms at p99{stretch}): its threads share the cores with the others"


def _judge(sweep: Sweep, pool: int, targets: dict[str, Target]) -> Verdict:
    verdict = Verdict(pool)
    for cls in sweep.classes:
        cell = sweep.at(pool, cls)
        if cell is None:
            verdict.problems.append((cls, f"{cls} was not measured"))
            continue
        target = targets.get(cls)
        arrived = (cell.get("completed") or 0) + (cell.get("unfinished") or 0)
        unfinished = (cell.get("unfinished") or 0) / arrived if arrived else 0
        if target and unfinished > MAX_UNFINISHED[target.percentile]:
            verdict.problems.append((cls, f"{cls}: {unfinished:.0%} of its jobs never finished, so its "
                                           f"{target.percentile} is unbounded (the pool cannot keep up)"))
            continue
        value = cell.get(target.metric) if target else None
        if value is not None and value > target.ms:
            verdict.problems.append((cls, f"{cls} {target.percentile} {fmt(value)} ms > {target.ms:g} ms, "
                                           + _wait_or_service(cell)))
        if cls in CPU_CLASSES:
            best = _best_throughput(sweep, cls)
            got = cell.get("throughput_per_s") or 0
            if best and got < THROUGHPUT_KEPT * best:
                verdict.problems.append((cls, f"{cls} throughput {fmt(got)}/s is below {THROUGHPUT_KEPT:.0%} of its "
                                               f"best ({fmt(best)}/s)"))
    return verdict


def _saturation_size(sweep: Sweep) -> int | None:
    """The smallest size at which every CPU class has (nearly) its best throughput."""
    cpu = [c for c in sweep.classes if c in CPU_CLASSES]
    for pool in sweep.sizes:
        if cpu and all((sweep.at(pool, c) and (sweep.at(pool, c).get("throughput_per_s") or 0) >=
                        THROUGHPUT_KEPT * _best_throughput(sweep, c)) for c in cpu):
            return pool
    return None


def _machine_reasons(sweep: Sweep, cores: int | None, chosen: int | None) -> list[str]:
    reasons = []
    effective = [v.get("effective_cores") for v in sweep.per_size.values() if v.get("effective_cores")]
    machine = [v.get("machine_cpu_util") for v in sweep.per_size.values() if v.get("machine_cpu_util") is not None]
    line = f"This machine gives the pool {cores} cores"
    if effective:
        line += f"; CPU-bound threads side by side really got {fmt(median(effective), 1)} cores' worth"
    if machine:
        line += f" (the whole machine was {median(machine):.0%} busy during the runs, other work included)"
    reasons.append(line + ".")
    cpu = [c for c in sweep.classes if c in CPU_CLASSES]
    saturated = _saturation_size(sweep)
    if cpu and saturated is not None:
        util = sweep.per_size.get(saturated, {}).get("cpu_util")
        reasons.append(f"CPU work ({', '.join(cpu)}) reaches its full throughput from pool {saturated}"
                       + (f", where the process used {util:.0%} of the cores" if util is not None else "") +
                       ": beyond that, more threads cannot finish more of it.")
    if cpu and chosen is not None and sweep.sizes[-1] > chosen:
        largest = sweep.sizes[-1]
        for cls in cpu:
            here, there = sweep.at(chosen, cls), sweep.at(largest, cls)
            if here and there and here.get("service_p50_ms") and there.get("service_p50_ms"):
                reasons.append(f"Larger pools only add contention: {cls}'s median service time is "
                               f"{fmt(here.get('service_p50_ms'))} ms at pool {chosen} and "
                               f"{fmt(there.get('service_p50_ms'))} ms at pool {largest}, as more threads share the cores.")
                break
    return reasons


def _target_line(sweep: Sweep, pool: int, targets: dict[str, Target], verdicts: list[Verdict],
                 wait: "wait_choice.SizeWait", limit_ms: float) -> str:
    """Whether the requests met their target at the recommended size, and if not, where their time went:
    elsewhere when its pool wait is certainly immaterial (its whole interval under `limit_ms`); when the
    interval reaches above it, perhaps to too few threads, which the sweep could not tell."""
    target = targets[wait_choice.CLASS]
    cell = sweep.at(pool, wait_choice.CLASS)
    value = cell.get(target.metric) if cell else None
    missed = next(v for v in verdicts if v.pool == pool).problems
    if not missed:
        return f"At pool {pool} the requests meet their target ({target.text()}: {fmt(value)} ms)."
    loop = sweep.per_size.get(pool, {})
    if wait.interval.high > limit_ms:
        return (f"The requests miss their target at pool {pool} ({missed[0][1]}), and its pool work "
                f"{wait.text()}, an interval that reaches above what matters ({fmt(limit_ms)} ms): too few "
                "threads may be part of it; the sweep could not tell. --repetitions 3 or a longer --duration "
                "narrows the intervals.")
    return (f"The requests miss their target at pool {pool} ({missed[0][1]}), but not for want of threads: more "
            f"would not shorten a wait that is not there. Their time goes elsewhere: the program's loop ran up to "
            f"{fmt(loop.get('loop_delay_p99_ms'))} ms late (p99) at {loop.get('loop_utilization', 0):.0%} utilisation, "
            "and the machine's cores are shared (below).")


def _recommend_from_waits(sweep, waits, targets, verdicts, cores) -> Recommendation:
    alone = _alone(sweep).get(wait_choice.CLASS)
    chosen, reasons = wait_choice.choose(waits, alone, cores)
    if chosen is not None:
        wait = next(w for w in waits if w.pool == chosen)
        reasons.append(_target_line(sweep, chosen, targets, verdicts, wait, wait_choice.threshold_ms(alone)))
    reasons += [note for note in [wait_choice.slow_io_note(waits)] if note]
    return Recommendation(chosen, targets, verdicts, reasons + _machine_reasons(sweep, cores, chosen),
                          "no size swept stops the pool's wait: see why below")


def recommend(sweep: Sweep, given: dict[str, Target], cores: int | None) -> Recommendation:
    targets = for_classes(given, _alone(sweep), set(sweep.mix.in_flight))
    verdicts = [_judge(sweep, pool, targets) for pool in sweep.sizes]
    waits = wait_choice.measured(sweep) if sweep.runtime == "app" else None
    if waits:
        return _recommend_from_waits(sweep, waits, targets, verdicts, cores)
    chosen = next((v.pool for v in verdicts if not v.problems), None)
    reasons = []
    if chosen is not None:
        met = ", ".join(f"{t.text()}: {fmt(sweep.at(chosen, c).get(t.metric))} ms" for c, t in targets.items())
        reasons.append(f"Pool {chosen} is the smallest size where every class meets its target ({met}) and no CPU "
                       "class loses throughput.")
        for v in verdicts:
            if v.pool < chosen:
                reasons.append(f"Pool {v.pool} falls short: {v.text()}.")
    else:
        for cls in sweep.classes:
            failing = [v for v in verdicts if any(c == cls for c, _ in v.problems)]
            if failing and len(failing) == len(verdicts):
                best = min(verdicts, key=lambda v: (sweep.at(v.pool, cls).get(targets[cls].metric) or float("inf"))
                           if sweep.at(v.pool, cls) else float("inf"))
                why = "; ".join(text for c, text in best.problems if c == cls)
                reasons.append(f"{cls} misses its target at every size; at its best, pool {best.pool}: {why}.")
        if not verdicts:
            reasons.append("No pool size of this sweep was measured: its cells failed (listed below).")
        elif not reasons:
            closest = min(verdicts, key=lambda v: len(v.problems))
            reasons.append(f"Every class meets its target at some size, but never all at the same size; the closest "
                           f"is pool {closest.pool}, where {closest.text()}.")
    reasons += _machine_reasons(sweep, cores, chosen)
    return Recommendation(chosen, targets, verdicts, reasons)
