"""What a regex run concluded, in the forms people read: the patterns x engines matrix (verdict,
and time at the largest length every engine finished), classification rows for the CSV, and the
budget overrun figure."""
import csv
import io

from ... import runtimes
from ...rendering import stats
from .curves import Curve, largest_common_length

SHORT = {"linear": "linear", "rejected": "rejected", "guarded": "guarded", "crashed": "crashed",
         "timeout": "timeout", "error": "ERROR", "unknown": "?", "wrong answers": "wrong answers",
         "disputed answers": "disputed answers", "growing": "grows"}
CLASSIFICATION_COLUMNS = ["pattern", "engine", "verdict", "degree", "base", "r2", "points", "largest_finished_length",
                          "growth_from_length", "stopped_at_length", "stop_status", "stop_detail", "fallback",
                          "description"]
FELL_BACK = " (fell back)"  # a matrix cell's mark: the engine ran it with another algorithm than its own
GROWING = ("polynomial", "exponential", "growing")


def fmt_time(ms: float | None) -> str:
    """A match time at a readable scale: 1.24 s, 615.8 ms, 61.2 µs, 63 ns."""
    if ms is None:
        return "–"
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 1:
        return f"{ms:.1f} ms"
    if ms >= 0.001:
        return f"{ms * 1000:.1f} µs"
    return f"{ms * 1e6:.0f} ns"


def short_verdict(curve: Curve) -> str:
    """A matrix cell: 'exp x2.0', 'poly 2.1', 'poly 2.1 >4096' (flat up to 4096), 'linear',
    'linear, step@65537' (one jump, e.g. V8 switching engines), 'linear, crashed@65536' (fitted,
    then stopped), 'guarded@16', 'wrong answers'."""
    verdict = curve.verdict
    if verdict == "exponential":
        text = f"exp x{curve.growth.base:.2f}"
    elif verdict == "polynomial":
        text = f"poly {curve.growth.degree:.1f}"
    else:
        text = SHORT.get(verdict, verdict)
    if verdict in GROWING and curve.growth.flat_until is not None:
        text += f" >{curve.growth.flat_until + curve.offset}"
    if verdict == "linear" and curve.growth.step_at is not None:
        text += f", step@{curve.growth.step_at + curve.offset}"
    if curve.stop and verdict in ("guarded", "crashed", "error", "timeout"):
        text += f"@{curve.stop.length}"
    elif curve.stop and verdict in ("linear", *GROWING) and curve.stop.status != "timeout":
        text += f", {curve.stop.status}@{curve.stop.length}"
    return text + (FELL_BACK if curve.fallback else "")


def by_variant(curves: dict[tuple[str, str], Curve]) -> dict[str, dict[str, Curve]]:
    grouped: dict[str, dict[str, Curve]] = {}
    for (variant, engine), curve in curves.items():
        grouped.setdefault(variant, {})[engine] = curve
    return grouped


def matrix_rows(curves: dict[tuple[str, str], Curve], variants: list[str], engines: list[str]):
    """Per variant: (variant, largest common length, [(engine, verdict text, ms at that length)])."""
    grouped = by_variant(curves)
    for variant in variants:
        per_engine = grouped.get(variant, {})
        common = largest_common_length(per_engine)
        cells = []
        for engine in engines:
            curve = per_engine.get(engine)
            if curve is None:
                cells.append((engine, "–", None))
            else:
                cells.append((engine, short_verdict(curve), curve.time_at(common) if common else None))
        yield variant, common, cells


def matrix_text(curves, variants, engines) -> str:
    rows = list(matrix_rows(curves, variants, engines))
    width = max(10, *(len(e) for e in engines), *(len(text) for _, _, cells in rows for _, text, _ in cells)) + 1
    name_width = max(16, *(len(v) for v in variants)) + 2  # "  at 65,536,000" fits too
    lines = [" " * name_width + "".join(e.ljust(width) for e in engines)]
    for variant, common, cells in rows:
        lines.append(variant.ljust(name_width) + "".join(text.ljust(width) for _, text, _ in cells))
        if common:
            times = "".join(fmt_time(ms).ljust(width) for _, _, ms in cells)
            lines.append(f"  at {common:,}".ljust(name_width) + times)
    return "\n".join(lines)


def classification_csv(curves: dict[tuple[str, str], Curve]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CLASSIFICATION_COLUMNS)
    for (variant, engine), c in sorted(curves.items()):
        g = c.growth
        writer.writerow([variant, engine, c.verdict, "" if g.degree is None else f"{g.degree:.3f}",
                         "" if g.base is None else f"{g.base:.4f}", "" if g.r2 is None else f"{g.r2:.4f}",
                         len(c.points), c.points[-1][0] if c.points else "",
                         "" if g.flat_until is None else g.flat_until + c.offset, c.stop.length if c.stop else "", c.stop.status if c.stop else "",
                         c.stop.detail if c.stop else "", c.fallback or "", c.describe()])
    return out.getvalue()


def throughput_cells(rows) -> dict[str, dict[str, float | str]]:
    """pattern -> engine -> median MB/s, or the status of a cell that did not finish."""
    grouped: dict[tuple[str, str], list] = {}
    for r in rows:
        if r.benchmark == "throughput" and r.metric == "throughput_mb_s":
            p = r.params
            grouped.setdefault((p["pattern"], runtimes.label(p, "engine")), []).append(r)
    table: dict[str, dict[str, float | str]] = {}
    for (pattern, engine), cell in grouped.items():
        ok = [r.value for r in cell if r.status == "ok"]
        table.setdefault(pattern, {})[engine] = stats.median(ok) if ok else cell[0].status
    return table


def throughput_text(rows, engines) -> str:
    table = throughput_cells(rows)
    if not table:
        return ""
    width = max(14, *(len(e) for e in engines)) + 1
    lines = ["throughput, MB/s".ljust(30) + "".join(e.ljust(width) for e in engines)]
    for pattern, by_engine in table.items():
        cells = [by_engine.get(e, "–") for e in engines]
        lines.append(pattern.ljust(30) + "".join((stats.fmt(c, 0) if isinstance(c, float) else c).ljust(width)
                                                 for c in cells))
    return "\n".join(lines)


def overrun(times, budget_ms: float) -> dict:
    """The worst match cell's wall time against the budget (its first repetition's start, once the
    engine's runtime has started, to exit)."""
    ratios = [(t.seconds * 1000 / budget_ms, t) for t in times if "/match " in t.label]
    if not ratios:
        return {"max_ratio": None, "cells_over_1_2": 0}
    worst, cell = max(ratios, key=lambda item: item[0])
    return {"max_ratio": round(worst, 3), "worst_cell": cell.label, "worst_status": cell.status,
            "cells_over_1_2": sum(1 for r, _ in ratios if r > 1.2), "cells": len(ratios)}


# "At what input length a match passes 25 ms": the riskiest-first order, and where a scan's escalation
# stops. The class is decided by then: cut at 25 ms, the 1,180 curves a scan of 893 regexes escalated up
# to 100 ms kept their verdicts but 6 (two scans of that tree differed in 4 curves' and 11 attacks'),
# their degrees moved by a median 0.02; the matches past 25 ms were about half the escalation's time.
SLOW_MS = 25.0
BLOWS_UP = ("polynomial", "exponential", "growing", "timeout", "guarded", "crashed")


def length_over(curve: Curve, ms: float = SLOW_MS) -> int | None:
    """The first length at which a match took `ms` or more, or at which the cell ran out of its
    budget (the budget is at least 10 ms; the command refuses less)."""
    for n, t in curve.points:
        if t >= ms:
            return n
    return curve.stop.length if curve.stop and curve.stop.status == "timeout" else None


def engine_verdicts(curves: dict[tuple[str, str], Curve], variant: str, engines: list[str]) -> list[dict]:
    """A variant's verdict per engine, as the risk listing and the cache keep it."""
    found = []
    for engine in engines:
        curve = curves.get((variant, engine))
        if curve is not None:
            found.append({"engine": engine, "verdict": curve.verdict, "short": short_verdict(curve),
                          "slow_at": length_over(curve)})
    return found


def risk_row(variant: str, verdicts: list[dict]) -> dict:
    """The engines that blow up (verdict and the length past SLOW_MS), those that stay linear, those
    with wrong answers."""
    row = {"variant": variant, "blow_up": [], "linear": [], "wrong": [], "other": []}
    for v in verdicts:
        if v["verdict"] in BLOWS_UP:
            row["blow_up"].append({"engine": v["engine"], "verdict": v["short"], "slow_at": v["slow_at"]})
        elif v["verdict"] == "linear":
            row["linear"].append(v["engine"])
        elif v["verdict"] in ("wrong answers", "disputed answers"):
            row["wrong"].append(v["engine"])
        else:
            row["other"].append(f"{v['engine']} {v['short']}")
    return row


def own_first(engines: list[str], own: str | None) -> list[str]:
    """The engines with those of the regex's own language (its reference: python, node for node@26) first."""
    return sorted(engines, key=lambda e: runtimes.base(e) != own) if own else engines


def risk_rows(curves: dict[tuple[str, str], Curve], variants: list[str], engines: list[str],
              cached: dict[str, list[dict]] | None = None, own: dict[str, str] | None = None) -> list[dict]:
    """Per variant (and per regex the cache answered: `cached`, variant -> engine verdicts): its
    risk_row, its own language's engine first (`own`: variant -> reference engine), riskiest first
    (most engines blowing up, then the shortest input past SLOW_MS)."""
    own = own or {}
    rows = [{**risk_row(v, engine_verdicts(curves, v, own_first(engines, own.get(v)))), "own": own.get(v)}
            for v in variants]
    rows += [{**risk_row(v, sorted(verdicts, key=lambda d: runtimes.base(d["engine"]) != own.get(v))),
              "cached": True, "own": own.get(v)} for v, verdicts in (cached or {}).items()]
    soonest = lambda row: min((b["slow_at"] for b in row["blow_up"] if b["slow_at"]), default=float("inf"))
    return sorted(rows, key=lambda row: (-len(row["blow_up"]), soonest(row)))


def risk_text(rows: list[dict], described: dict[str, str]) -> str:
    """The risky-first listing; `described`: variant -> where it was found and what recheck said."""
    lines = [f"risky first: engines that blow up (and the input length where a match passes {SLOW_MS:g} ms), "
             "engines that stay linear"]
    for row in rows:
        lines.append(f"{row['variant']}: {described.get(row['variant'], '')}"
                     + (f"  [own engine: {row['own']}]" if row.get("own") else ""))
        if row["blow_up"]:
            lines.append("  blow up: " + "; ".join(
                f"{b['engine']} {b['verdict']}" + (f" ({SLOW_MS:g} ms at {b['slow_at']:,})" if b["slow_at"] else "")
                for b in row["blow_up"]))
        for key, label in (("linear", "linear"), ("wrong", "wrong answers"), ("other", "other")):
            if row[key]:
                lines.append(f"  {label}: {', '.join(row[key])}")
    return "\n".join(lines)
