"""What a regex run concluded, in the forms people read: the patterns x engines matrix (verdict,
and time at the largest length every engine finished), classification rows for the CSV, and the
budget overrun figure."""
import csv
import io

from ..report import stats
from .curves import Curve, largest_common_length

SHORT = {"linear": "linear", "rejected": "rejected", "guarded": "guarded", "crashed": "crashed",
         "timeout": "timeout", "error": "ERROR", "unknown": "?"}
CLASSIFICATION_COLUMNS = ["pattern", "engine", "verdict", "degree", "base", "r2", "points", "largest_finished_length",
                          "stopped_at_length", "stop_status", "stop_detail", "description"]


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
    """A matrix cell: 'exp x2.0', 'poly 2.1', 'linear', 'guarded@16', 'crashed@200000'."""
    verdict = curve.verdict
    if verdict == "exponential":
        return f"exp x{curve.growth.base:.2f}"
    if verdict == "polynomial":
        return f"poly {curve.growth.degree:.1f}"
    text = SHORT.get(verdict, verdict)
    if verdict in ("guarded", "crashed", "error") or (verdict == "timeout" and curve.stop):
        text += f"@{curve.stop.length}"
    return text


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
    width = max(14, *(len(e) for e in engines)) + 1
    name_width = max(len(v) for v in variants) + 2
    lines = [" " * name_width + "".join(e.ljust(width) for e in engines)]
    for variant, common, cells in matrix_rows(curves, variants, engines):
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
                         c.stop.length if c.stop else "", c.stop.status if c.stop else "",
                         c.stop.detail if c.stop else "", c.describe()])
    return out.getvalue()


def throughput_cells(rows) -> dict[str, dict[str, float | str]]:
    """pattern -> engine -> median MB/s, or the status of a cell that did not finish."""
    grouped: dict[tuple[str, str], list] = {}
    for r in rows:
        if r.benchmark == "throughput" and r.metric == "throughput_mb_s":
            p = r.param_dict()
            grouped.setdefault((p["pattern"], p["engine"]), []).append(r)
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
    """The worst match cell's wall time against the budget (process start to exit)."""
    ratios = [(t.seconds * 1000 / budget_ms, t) for t in times if "/match " in t.label]
    if not ratios:
        return {"max_ratio": None, "cells_over_1_2": 0}
    worst, cell = max(ratios, key=lambda item: item[0])
    return {"max_ratio": round(worst, 3), "worst_cell": cell.label, "worst_status": cell.status,
            "cells_over_1_2": sum(1 for r, _ in ratios if r > 1.2), "cells": len(ratios)}
