"""The steps a --scan adds to a study: its cache (read, and refused when it is not one, before
anything else is done; what it already answers), its triage (which engine x regex pairs the
escalation measures) and that escalation, in the probe. cache.py and triage.py do the work; these
say what they did, on stderr."""
import sys
import time
from pathlib import Path

from ... import parallel, paths, runtimes
from . import cache, triage
from .scan_clock import Clock, Progress, minutes
from .patterns import Pattern, Variant


def cache_of(given: Path | None, out: Path | None) -> cache.Cache:
    """The scan cache: `given` (--cache), else beside the run directories (under --out when given)."""
    return cache.Cache.load(given or (out or paths.RUNS.parent) / cache.FILE)


def answered(store: cache.Cache | None, scanned: list[Pattern], versions: dict[str, str]):
    """What the cache already holds: (variant -> engine verdicts, the patterns it answers)."""
    if store is None:
        return {}, []
    found = {p.name: verdicts for p in scanned if (verdicts := store.seen(p, versions)) is not None}
    return found, [p for p in scanned if p.name in found]


def _matches(rows) -> int:
    return sum(r.metric == "match_ms" for r in rows)


def _engine_done(clock: Clock, step: str):
    """Minutes of work on a tree: each engine said as it finishes, its busy time on the clock."""
    def done(engine: str, regexes: int, rows, finished: int, engines: int, busy_s: float) -> None:
        clock.engine(step, engine, busy_s)
        print(f"stallbench:   {engine}: {regexes} regexes, {_matches(rows)} matches in {minutes(busy_s)} "
              f"({finished} of {engines} engines done)", file=sys.stderr, flush=True)
    return done


def triaged(probe_binary: Path, engines: list[str], variants: list[Variant], node_paths: dict[str, str],
            clock: Clock, automata: frozenset[str],
            measured_as: dict[tuple[str, str], str]) -> tuple[set[tuple[str, str]], list, list]:
    """The (variant, engine) pairs to escalate (those that blew up in the triage), the triage's
    rows of the others, which give their verdicts, and its rows of those pairs, where their
    escalation starts from. The pairs of `measured_as` are not measured: their verdicts are those
    of the engine whose algorithm they fell back to."""
    n = len(measured_as)
    same = (f"; {n} pair{'s' * (n > 1)} left to the engine whose algorithm {'they fall' if n > 1 else 'it falls'} "
            f"back to" if n else "")
    print(f"stallbench: triage: {len(variants)} regexes x {len(engines) - len(automata)} engines at 3 lengths, "
          f"{len(automata)} linear by construction ({', '.join(sorted(automata))}) at one{same}, one process per "
          f"engine, {parallel.cores()} at a time ...", file=sys.stderr, flush=True)
    progress = Progress("triage", len(variants) * len(engines) - len(measured_as), "regex x engine pairs")
    rows = triage.triage(probe_binary, engines, variants, node_paths, _engine_done(clock, "triage"), progress,
                         automata, measured_as)
    escalate = triage.blown_up(rows, variants, automata)
    print(f"stallbench: triage: {len({v for v, _ in escalate})} of {len(variants)} regexes grew on some engine "
          f"({len(escalate)} regex x engine pairs): the escalation measures those", file=sys.stderr, flush=True)
    grew = lambda r: (r.params["pattern"], runtimes.label(r.params, "engine")) in escalate
    return escalate, [r for r in rows if not grew(r)], [r for r in rows if grew(r)]


def escalated(probe_binary: Path, pairs: set[tuple[str, str]], variants: list[Variant], node_paths: dict[str, str],
              ladder: list[int] | None, clock: Clock, triaged: list) -> list:
    """The escalation's rows of the pairs the triage saw grow, measured in the probe from where the
    triage's rows of them (`triaged`) left off."""
    if not pairs:
        return []
    print(f"stallbench: escalation: {len(pairs)} regex x engine pairs through their lengths, each up to a match "
          f"past {triage.ESCALATION_STOP_MS:g} ms, one process per engine ...", file=sys.stderr, flush=True)
    start = time.monotonic()
    progress = Progress("escalation", len(pairs), "regex x engine pairs")
    rows = triage.escalate(probe_binary, pairs, variants, node_paths, ladder, _engine_done(clock, "escalation"),
                           progress, triaged)
    kept = sum(r.metric == "match_ms" and r.status == "ok" for r in triaged)
    print(f"stallbench: escalation: {_matches(rows) - kept:,} matches timed in {time.monotonic() - start:.0f} s, "
          f"beside the triage's {kept:,} of these pairs", file=sys.stderr, flush=True)
    return rows
