"""A --scan beside recheck alone, on the same regexes: recheck (node/recheck_timed.js, its default
parameters, timed regex by regex, shared over the cores as the scan's analysis is) against the
scan's verdicts (classification.csv) and time (meta.json's `regex.time_split`). Agreement is read on
each regex's own language's engine (its `reference`, V8 for JavaScript): recheck's "vulnerable"
against that engine blowing up (summary.BLOWS_UP), a 2 x 2 table; beside it, what the other engines
find that recheck does not (a regex recheck calls safe on which some engine blows up). Only
regexes whose reference is JavaScript's engine are compared: recheck reads JavaScript's syntax."""
import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from ... import parallel, runtimes
from ...errors import UsageError
from ...medians import middle
from . import tools
from .scan_clock import minutes
from .summary import BLOWS_UP, fmt_time

FILE = "versus-recheck.csv"
COLUMNS = ["pattern", "regex", "flags", "recheck", "complexity", "checker", "recheck_ms", "engine", "verdict",
           "blow_up_elsewhere"]


@dataclass
class Compared:
    rows: list[dict]
    recheck: str
    scan_s: float
    scan_regexes: int

    def table(self) -> dict[tuple[bool, bool], int]:
        """(recheck vulnerable, own engine blows up) -> regexes."""
        found = {(a, b): 0 for a in (True, False) for b in (True, False)}
        for r in self.rows:
            if r["recheck"] in ("vulnerable", "safe"):
                found[(r["recheck"] == "vulnerable", r["verdict"] in BLOWS_UP)] += 1
        return found

    def text(self) -> str:
        t = self.table()
        decided = sum(t.values())
        times = sorted(r["recheck_ms"] for r in self.rows)
        unknown = sum(r["recheck"] not in ("vulnerable", "safe") for r in self.rows)
        elsewhere = [r for r in self.rows if r["recheck"] == "safe" and r["verdict"] not in BLOWS_UP
                     and r["blow_up_elsewhere"]]
        return "\n".join([
            f"{len(self.rows)} regexes, {self.recheck} beside this scan's verdicts on each regex's own engine:",
            f"  agree: {t[(True, True)] + t[(False, False)]} of {decided} ({t[(True, True)]} vulnerable and blowing up, "
            f"{t[(False, False)]} safe and linear); recheck could not decide {unknown}",
            f"  recheck vulnerable, own engine linear: {t[(True, False)]}; recheck safe, own engine blows up: "
            f"{t[(False, True)]}",
            f"  recheck safe, linear on the own engine, blowing up on another engine: {len(elsewhere)}",
            f"  time a regex: recheck median {fmt_time(middle(times))}, max {fmt_time(times[-1])}, "
            f"{minutes(sum(times) / 1000)} in all; the scan {minutes(self.scan_s)} for {self.scan_regexes} regexes "
            f"({self.scan_s / max(1, self.scan_regexes):.2f} s a regex, every engine)"])

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        return out.getvalue()


def _scan_of(run_dir: Path) -> tuple[dict, dict[tuple[str, str], str]]:
    try:
        meta = json.loads((run_dir / "meta.json").read_text())
        with open(run_dir / "classification.csv", newline="") as f:
            verdicts = {(r["pattern"], r["engine"]): r["verdict"] for r in csv.DictReader(f)}
    except (OSError, ValueError) as e:
        raise UsageError(f"{run_dir}: not a regex run directory ({e})") from None
    if not (meta.get("regex") or {}).get("scan"):
        raise UsageError(f"{run_dir}: not the run directory of a --scan (its meta.json has no regex.scan)")
    return meta, verdicts


def compare(run_dir: Path, reference: str) -> Compared:
    """recheck on the scan's regexes whose reference is `reference` (JavaScript's engine), timed."""
    meta, verdicts = _scan_of(run_dir)
    chosen = {n: p for n, p in meta["regex"]["patterns"].items() if p.get("reference") == reference}
    if not chosen:
        raise UsageError(f"{run_dir}: no regex of the scan has {reference} as its engine: nothing recheck reads")
    names = list(chosen)
    tools.ensure_installed()
    tools.tool_node()
    shares = [names[k::parallel.cores()] for k in range(min(parallel.cores(), len(names)))]
    replies = parallel.each(lambda share: tools.run("recheck_timed.js", {"regexes": [
        {"source": chosen[n]["regex"], "flags": chosen[n]["flags"]} for n in share]}, 60 + 25 * len(share)), shares)
    results = {}
    for share, reply in zip(shares, replies):
        results.update(zip(share, reply["results"]))
    engines = sorted({e for _, e in verdicts})
    rows = []
    for name in names:
        r = results[name]
        own = next((e for e in engines if runtimes.base(e) == reference), reference)
        rows.append({"pattern": name, "regex": chosen[name]["regex"], "flags": chosen[name]["flags"],
                     "recheck": r["status"], "complexity": r["complexity"] or "", "checker": r["checker"] or "",
                     "recheck_ms": round(r["ms"], 3), "engine": own, "verdict": verdicts.get((name, own), ""),
                     "blow_up_elsewhere": " ".join(e for e in engines if verdicts.get((name, e)) in BLOWS_UP)})
    split = meta["regex"].get("time_split") or {}
    return Compared(rows, replies[0]["recheck"], split.get("total_s", 0.0), len(meta["regex"]["patterns"]))
