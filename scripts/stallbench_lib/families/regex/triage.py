"""--scan's measurements, timed by regex_probe (benches/regex_probe.cc) in one long-lived process per
engine, as many engines at once as the machine has cores, so a dependency tree's hundreds of
regexes cost one process per engine where a catalogue study costs one per engine, length and regex.

- The triage: every regex's attack at a few lengths on every engine. Where an engine grows faster
  than its input, runs out of time, fires its guard or crashes, that engine on that regex is
  escalated; everywhere else the verdict is read from these points.
- The escalation: each escalated pair through its whole ladder of lengths, up to the first match
  past ESCALATION_STOP_MS (the point the risky-first listing ranks by), then once more where the
  curve needs it before its verdict can stand (refine.py: lengths inside a turn, a noisy verdict's
  lengths again; the fastest time of a length counts). The triage's own points of the pair are
  points of its curve: their lengths are not measured again, nor lengths past one of them that
  already passed ESCALATION_STOP_MS. Its last match is aimed near that stop (`aimed`).
- Neither step measures an engine on a regex where it falls back to another engine's algorithm
  (engines.Engines.measured_as): that engine's curve is its own.

A match cannot be interrupted inside the probe: a process that has spent HANG_S of processor time
(its own and its engine's program's) on a match it announced, past QUIET_S of silence, or has been
silent for HANG_WALL_S, is killed (its whole group, through children.py), that match recorded as
`timeout`, and the probe started again from the next regex; one that dies is `crashed` the same way."""
import json
import math
import os
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from ... import build, children, contract, runtimes
from ...errors import UsageError
from ...medians import middle
from ...parameters import Params
from ...rendering import grouping
from ...tidy import Row
from . import refine
from ...process_cpu import tree_cpu_s
from .curves import curves
from .patterns import Variant
from .summary import BLOWS_UP, SLOW_MS as ESCALATION_STOP_MS

# A scan's run directory: the triage's rows of the pairs it did not escalate (their verdicts come
# from them) and the escalation's rows (the pairs that grew). results.csv holds no match row of a scan.
TRIAGE_FILE = "triage.csv"
ESCALATION_FILE = "escalation.csv"
SLOW_MS = 50                          # in the triage, a match this slow ends its regex's probe on that engine,
PREDICTED_SLOW_MS = SLOW_MS           # and so does one predicted this slow at the rate of the last two lengths
# (a pair its triage ends before three lengths is escalated, blown_up). A quadratic at 10 ms on 2 KB took
# seconds on 32 KB, killed as stuck. At 4 x SLOW_MS, the matches from 50 to 400 ms that the prediction had
# seen coming were 30 s of the triage's 77 s of processor time on the 893-regex tree (its 15 engines,
# modelled from each match's time). At SLOW_MS 194 pairs skip their long length; 6 of them would not
# have been escalated (V8's, rising from 2 to 26 ms at the long length: the escalation reads them).
QUIET_S = 0.25                        # silence after which a match's processor time is counted
HANG_S = 1.0                          # processor time on one match past that: it is stuck (a match past SLOW_MS
# and ESCALATION_STOP_MS says all a curve needs; 2 s after 2 s of silence made each stuck match cost 5 s,
# most of a tree's triage on the engines without a guard)
HANG_WALL_S = 20.0                    # silence after announcing a match, whatever the processor time
# On a loaded machine (load 40 on 2 cores here) a 100 ms match waits seconds for the processor: a
# limit on silence alone killed matches that were only waiting, restarted the probe each time and
# recorded timeouts that were the load's.
START_S = 30.0                        # silence allowed before the first line (a JVM, a node, a big compile)


def binary(build_dir: Path) -> Path:
    return build.helper_binary(build_dir, "regex_probe")


FLOOR_MS = 0.05                       # growth read from faster matches is the timer's and the machine's noise
STEEP_END = 1.25                      # a last segment this steep (log-log) is escalated whatever the fit says


def lengths(variant: Variant) -> list[int]:
    """Three to five of the variant's own escalation lengths, so the triage's points and the
    escalation's meet at common lengths: an exponential attack's first four and its long one (1,024
    pumped bytes: an engine that blows up is past SLOW_MS before it and skips it; one that only grows
    polynomially on it shows there, as Java does on Tika's header regex, its `*` loops remembering
    where they failed), else a short, a middle and a long one (32, 2,048 and 32,768 pumped bytes of the
    default ladder)."""
    own = variant.lengths
    if variant.pattern.expect == "exponential" and not variant.is_safe and len(own) > 5:
        return own[:4] + own[-2:-1]
    return sorted({own[1], middle(own), own[-2]}) if len(own) >= 4 else own


def _steepest_end(curve) -> float:
    """The log-log slope of a curve's last two points (pumped lengths): a turn from flat to
    quadratic shows here before a fit over all three points reads it."""
    if len(curve.points) < 2:
        return 0.0
    (n1, t1), (n2, t2) = [(n - curve.offset, max(t, 1e-9)) for n, t in curve.points[-2:]]
    return math.log(t2 / t1) / math.log(n2 / n1) if n1 > 0 and n2 > n1 else 0.0


def blown_up(rows: list[Row], variants: list[Variant], automata: frozenset[str] = frozenset()) -> set[tuple[str, str]]:
    """The (variant, engine) pairs that blew up in the triage (grew faster than its input above the
    noise floor, or turned up steeply at its end, ran out of time, fired its guard, crashed), and
    those whose triage ended before three lengths with nothing to say why (a match took SLOW_MS,
    the machine's load as likely as the engine's: std::regex's `^\\w+$` read linear in one scan and
    `unknown` in the next): those the escalation measures. An engine that stayed linear on a variant
    keeps the triage's verdict; an automaton its one check's (linear by construction)."""
    found = curves(rows, {v.name: v.pattern.fixed for v in variants})
    return {key for key, c in found.items()
            if c.stop and c.stop.status in ("timeout", "guarded", "crashed")
            or c.verdict == "unknown" and key[1] not in automata
            or max((t for _, t in c.points), default=0) >= FLOOR_MS
            and (c.verdict in BLOWS_UP or _steepest_end(c) >= STEEP_END)}


@dataclass
class _EngineProbe:
    """One engine's probe process and what it said: rows, restarts after a stuck match."""
    engine: str
    request: dict
    items: list[tuple[Variant, list[int]]]  # each regex with the lengths it is measured at
    rows: list[Row] = field(default_factory=list)
    first: int = 0
    proc: subprocess.Popen | None = None
    buffer: bytes = b""
    current: tuple[int, int | None] | None = None  # (regex, input) announced and not answered
    heard: float = 0.0
    said_anything: bool = False
    greeted: bool = False                   # its first line, the protocol it speaks, was read
    cpu_at_silence: float | None = None     # the group's processor seconds when the silence passed QUIET_S
    started: float = 0.0
    busy_s: float = 0.0                     # the life of its processes, restarts included
    reached: int = 0                        # regexes it has got past, for the progress line
    progress: object = None

    def _reach(self, index: int) -> None:
        if index > self.reached and self.progress is not None:
            self.progress.advance(index - self.reached)
        self.reached = max(self.reached, index)

    def start(self, binary_path: Path) -> None:
        self.proc = children.start([str(binary_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
        self.proc.stdin.write(json.dumps({**self.request, "first": self.first}).encode())
        self.proc.stdin.close()
        self.buffer, self.current, self.said_anything, self.greeted = b"", None, False, False
        self.heard = self.started = time.monotonic()

    def _row(self, index: int, k: int, metric: str, value, status: str, detail: str) -> Row:
        v, ns = self.items[index]
        params = Params({**runtimes.params_of(self.engine, "engine"), "length": ns[k], "pattern": v.name})
        return Row("", "regex", "match", params, 0, metric, value, "ms" if metric == "match_ms" else "count",
                   status, detail)

    def _line(self, line: bytes) -> bool:
        """Reads one line through the contract (the first: the protocol it speaks; then events);
        True when the probe said it is done. A probe of another checkout stops the command in one line."""
        try:
            said = contract.parse(line.decode("utf-8", "replace"),
                                  "regex_probe_event" if self.greeted else "regex_probe_hello", "regex_probe")
        except contract.ProtocolError as e:  # probe() kills it on the way out
            raise UsageError(str(e)) from None
        if not self.greeted:
            self.greeted = True
            return False
        return self._event(said)

    def _event(self, event: dict) -> bool:
        """Records one event; True when the probe said it is done."""
        if event.get("done"):
            self._reach(len(self.items))
            return True
        i, k = event["regex"], event.get("input", 0)
        self._reach(i)
        if event.get("start"):
            self.current = (i, k)
        elif "rejected" in event:
            self.rows.append(self._row(i, 0, "match_ms", None, "rejected", event["rejected"]))
        elif "guarded" in event or "error" in event:
            status = "guarded" if "guarded" in event else "error"
            self.rows.append(self._row(i, k, "match_ms", None, status, event[status]))
            self.current = None
        else:
            self.rows.append(self._row(i, k, "match_ms", event["ms"], "ok", ""))
            self.rows.append(self._row(i, k, "matched", float(event["matched"]), "ok", ""))
            self.current = None
        return False

    def read(self) -> str:
        """Reads what the process wrote: `running`, `finished` (it said done, or nothing is left to
        probe) or `restart` (it died in a match: start it again from the next regex)."""
        chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
        self.heard, self.said_anything, self.cpu_at_silence = time.monotonic(), True, None
        if not chunk:
            return self._ended("crashed", f"the probe died (exit status {self.proc.wait()})")
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        if not any([self._line(line) for line in lines if line]):
            return "running"
        self.proc.stdout.close()
        self.proc.wait()
        children.forget(self.proc)
        self.busy_s += time.monotonic() - self.started
        return "finished"

    def overdue(self, now: float) -> bool:
        """Stuck: HANG_S of processor time spent since it fell silent for QUIET_S, or silent HANG_WALL_S."""
        silent = now - self.heard
        if not self.said_anything:
            return silent > START_S
        if silent <= QUIET_S:
            return False
        spent = tree_cpu_s(self.proc.pid)
        if self.cpu_at_silence is None:
            self.cpu_at_silence = spent
        return spent - self.cpu_at_silence > HANG_S or silent > HANG_WALL_S

    def _ended(self, status: str, detail: str) -> str:
        """The process is gone before `done`: the match it was in gets `status`, the probe goes on from
        the next regex (`restart`), when there is one (else `finished`)."""
        children.kill(self.proc)
        self.proc.stdout.close()
        self.busy_s += time.monotonic() - self.started
        if self.current is not None:
            i, k = self.current
            self.rows.append(self._row(i, k, "match_ms", None, status, detail))
            self.first = i + 1
        else:
            self.first = len(self.items)  # it failed outside any match: nothing more to learn from it
        self._reach(self.first)
        return "finished" if self.first >= len(self.items) else "restart"

    def hang(self) -> str:
        return self._ended("timeout", f"one match over {HANG_S:g} s of processor time in regex_probe")


def probe(binary_path: Path, plan: dict[str, list[tuple[Variant, list[int]]]], nodes: dict[str, str] | None = None,
          slow_ms: float = SLOW_MS, workers: int | None = None, finished=None, progress=None,
          skip_ms: float = 0, aim: dict[str, set[int]] | None = None) -> list[Row]:
    """Match rows (benchmark `match`, run id empty) of every engine's regexes at their lengths (`plan`:
    engine -> [(variant, lengths)]), a regex's longer lengths skipped once a match takes `slow_ms`, or
    (`skip_ms` > 0) once the next would take `skip_ms` growing at the rate of the last two. `aim`:
    variant -> lengths measured only where the next one would overshoot `slow_ms` (regex_probe.cc).
    `finished(engine, regexes, rows, engines done, engines, busy seconds)` is told of each engine as it
    ends; `progress` (scan_clock.Progress) of each regex x engine pair done."""
    waiting = []
    for engine, items in plan.items():
        regexes = [{"regex": v.regex, "flags": v.pattern.flags, "inputs": [v.pattern.attack_input(n) for n in ns],
                    "aim": [k for k, n in enumerate(ns) if n in (aim or {}).get(v.name, ())]} for v, ns in items]
        request = {"engine": engine, "nodes": nodes or {}, "slow_ms": slow_ms, "skip_ms": skip_ms, "regexes": regexes}
        waiting.append(_EngineProbe(engine, request, items, progress=progress))
    running: dict[int, _EngineProbe] = {}
    rows: list[Row] = []
    selector = selectors.DefaultSelector()
    workers = workers or os.cpu_count() or 1

    def launch():
        while waiting and len(running) < workers:
            p = waiting.pop(0)
            p.start(binary_path)
            running[p.proc.stdout.fileno()] = p
            selector.register(p.proc.stdout, selectors.EVENT_READ)

    def settle(fd: int, state: str):
        p = running.pop(fd)
        if state == "restart":
            waiting.insert(0, p)  # from the regex after the stuck one
        else:
            rows.extend(p.rows)
            done.append(p.engine)
            if finished:
                finished(p.engine, len(p.items), p.rows, len(done), len(plan), p.busy_s)

    done: list[str] = []
    try:
        launch()
        while running:
            for key, _ in selector.select(timeout=0.25):
                state = running[key.fd].read()
                if state != "running":
                    selector.unregister(key.fileobj)
                    settle(key.fd, state)
            now = time.monotonic()
            for fd, p in [(fd, p) for fd, p in running.items() if p.overdue(now)]:
                selector.unregister(p.proc.stdout)
                settle(fd, p.hang())
            launch()
    finally:
        for p in running.values():
            children.kill(p.proc)
        selector.close()
    return rows


def triage(binary_path: Path, engines: list[str], variants: list[Variant], nodes: dict[str, str] | None = None,
           finished=None, progress=None, automata: frozenset[str] = frozenset(),
           measured_as: dict[tuple[str, str], str] | None = None) -> list[Row]:
    """Every engine x variant at the triage's lengths; an engine linear by construction (`automata`)
    once, at the longest: that it compiles the regex, answers, and at what cost, is all it can tell.
    The pairs of `measured_as` (engines.Engines.measured_as) are left out: the engine they name runs
    them the same way, and is measured."""
    plan = {e: [(v, lengths(v)[-1:] if e in automata else lengths(v)) for v in variants
                if (v.name, e) not in (measured_as or {})] for e in _backtracking_first(engines, automata)}
    return probe(binary_path, {e: items for e, items in plan.items() if items}, nodes, finished=finished,
                 progress=progress, skip_ms=PREDICTED_SLOW_MS)


def _backtracking_first(engines: list[str], automata: frozenset[str]) -> list[str]:
    """The engines that can blow up first (they take the longest), the automata after them."""
    return sorted(engines, key=lambda e: e in automata)


def _with_middles(variant: Variant, own: list[int]) -> list[int]:
    """`own` with one more length (in whole pumps) halfway between each two, on pumped bytes."""
    fixed = variant.pattern.fixed
    middles = [fixed + round(math.sqrt(max(a - fixed, 1) * (b - fixed))) for a, b in zip(own, own[1:])]
    return variant.pattern.snapped(own + middles) if variant.pattern.pumps else sorted(set(own + middles))


def halfway(variant: Variant) -> list[int]:
    """The variant's own lengths with one more halfway between each two: the escalation stops at the
    first match past ESCALATION_STOP_MS, and a quadratic that passes it on the default ladder's 4x
    steps overshoots it up to 16x (1.6 s a match: most of a tree's escalation); steps of 2x at most
    stop it by 4x, and the triage's lengths are among them."""
    return _with_middles(variant, variant.lengths)


def aimed(variant: Variant, ladder: list[int]) -> set[int]:
    """The lengths halfway again between each two of `ladder`: measured only where the next length
    of the ladder would overshoot ESCALATION_STOP_MS twice over (probe's `aim`), they bring a
    quadratic's last match from up to 4x past the stop to at most 2x (on an 893-regex tree, the
    last match of each curve was half of the escalation's time)."""
    return set(_with_middles(variant, ladder)) - set(ladder)


def _measured(rows: list[Row]) -> dict[tuple[str, str], dict[int, float]]:
    """(variant, engine) -> length -> the fastest match_ms of the finished matches among `rows`."""
    by_cell = grouping.values(rows, lambda p: (p["pattern"], runtimes.label(p, "engine"), int(p["length"])),
                              metrics=("match_ms",))
    found: dict[tuple[str, str], dict[int, float]] = {}
    for (name, engine, length), measured in by_cell.items():
        found.setdefault((name, engine), {})[length] = min(measured["match_ms"])
    return found


def _still_to_measure(ladder: list[int], known: dict[int, float], stop_ms: float = ESCALATION_STOP_MS,
                      beyond: int = 0) -> list[int]:
    """The lengths of a ladder longer than `beyond` not measured yet, up to its first point past `stop_ms`."""
    past = min((n for n, ms in known.items() if ms >= stop_ms), default=None)
    return [n for n in ladder if n not in known and n > beyond and (past is None or n < past)]


def escalate(binary_path: Path, pairs: set[tuple[str, str]], variants: list[Variant], nodes: dict[str, str] | None = None,
             ladder: list[int] | None = None, finished=None, progress=None, triaged: list[Row] = ()) -> list[Row]:
    """The escalation of the (variant, engine) pairs: each through its ladder (`ladder` for every
    variant, else its own lengths and the halfway ones) up to the first match past ESCALATION_STOP_MS, on
    to refine.DECIDING_MS where that left its class undecided (refine.undecided), then once more
    where its curve needs it (refine.py; lengths below a match that passed it too soon). `triaged`: the
    triage's rows; those of the pairs are returned with the escalation's, as points of their curves
    (_still_to_measure)."""
    by_name = {v.name: v for v in variants}
    reused = [r for r in triaged if (r.params["pattern"], runtimes.label(r.params, "engine")) in pairs
              and (r.metric != "match_ms" or r.status == "ok")]
    known = _measured(reused)

    def plan_of(wanted: dict[tuple[str, str], list[int]]) -> dict[str, list[tuple[Variant, list[int]]]]:
        plan: dict[str, list[tuple[Variant, list[int]]]] = {}
        for (name, engine), ns in sorted(wanted.items()):
            if ns:
                plan.setdefault(engine, []).append((by_name[name], sorted(set(ns))))
        return plan

    escalated = {by_name[name] for name, _ in pairs}
    ladders = {v.name: v.ladder(ladder) if ladder else halfway(v) for v in escalated}
    aims = {name: set() if ladder else aimed(by_name[name], own) for name, own in ladders.items()}  # --lengths: those
    every_length = lambda name: sorted(set(ladders[name]) | aims[name])
    wanted = {pair: _still_to_measure(every_length(pair[0]), known.get(pair, {})) for pair in pairs}
    if progress is not None:  # a pair the triage already took past the stop is done
        progress.advance(sum(not ns for ns in wanted.values()))
    rows = reused + probe(binary_path, plan_of(wanted), nodes, ESCALATION_STOP_MS, finished=finished, progress=progress,
                          aim=aims)
    offsets = {v.name: v.pattern.fixed for v in variants}
    found = curves(rows, offsets)
    measured = _measured(rows)
    further = {pair: _still_to_measure(every_length(pair[0]), measured[pair], refine.DECIDING_MS, max(measured[pair]))
               for pair, c in found.items() if pair in pairs and pair in measured and refine.undecided(c)}
    if any(further.values()):
        rows += probe(binary_path, plan_of(further), nodes, refine.DECIDING_MS, finished=finished, aim=aims)
        found = curves(rows, offsets)
    whole = lambda pair, ns: [n for n in by_name[pair[0]].pattern.snapped(ns) if n not in dict(found[pair].points)]
    again = {pair: whole(pair, refine.turn_lengths(c) + refine.below_slow(c, ESCALATION_STOP_MS))
             + ([n for n, _ in c.points] if refine.weak(c) else []) for pair, c in found.items()}
    return rows + probe(binary_path, plan_of(again), nodes, ESCALATION_STOP_MS, finished=finished)
