"""What `stallbench page` prints: per browser, the medians (and ranges) of its repetitions with the
verdicts (the page benchmark's thresholds), INP's phases as one repetition's (they add up), the
references beside what they check, and which hosts the page was refused."""
from collections import defaultdict

from .bands import verdict
from ...medians import median
from ...rendering import stats

SHOWN = (("tbt_ms", "TBT"), ("inp_ms", "INP"), ("frame_rate_hz", "frames/s"), ("longtasks", "long tasks"),
         ("loafs", "long animation frames"), ("fcp_ms", "first contentful paint"))
CHECKS = (("tbt_measures_ms", "TBT over the page's own performance.measure() tasks"),
          ("tbt_frames_ms", "TBT from the frame gaps"),
          ("tbt_lighthouse_ms", "Lighthouse's observed TBT"),
          ("inp_web_vitals_ms", "web-vitals' INP"))
PHASES = ("inp_input_delay_ms", "inp_processing_ms", "inp_presentation_ms")


def _by_browser(rows) -> dict[str, dict[str, dict[int, float]]]:
    """browser -> metric -> repetition -> value (the single-valued metrics)."""
    found = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        if r.status == "ok" and r.benchmark == "page":
            found[r.params["browser"]][r.metric].setdefault(r.repetition, r.value)
    return found


def _spread(values: dict[int, float]) -> str:
    v = sorted(values.values())
    text = stats.fmt(median(v))
    return text + (f" ({stats.fmt(v[0])}-{stats.fmt(v[-1])})" if len(v) > 1 else "")


def text(rows, family) -> str:
    bench = next(b for b in family.benchmarks if b.name == "page")
    limits = {k: (bench.constants[f"{k}_good_ms"], bench.constants[f"{k}_poor_ms"]) for k in ("tbt", "inp")}
    labels = {row["name"]: row["label"] for row in family.tables["browsers"]}
    signals = [row["name"] for row in family.tables.get("tbt_signals", [])]
    lines = []
    for browser, metrics in _by_browser(rows).items():
        reps = len(metrics.get("window_ms", {}))
        lines.append(f"{labels.get(browser, browser)}: {reps} repetition{'s' * (reps != 1)}, median (range)")
        for name, label in SHOWN:
            if name in metrics:
                band = name.split("_")[0]
                word = verdict(median(list(metrics[name].values())), *limits[band]) if band in limits else None
                lines.append(f"  {label:<24} {_spread(metrics[name])}" + (f"  {word}" if word else ""))
        signal = signals[0] if "longtasks" in metrics else signals[1]  # the browser's own task times, else frames
        lines.append(f"  {'TBT measured from':<24} {signal}")
        if "inp_ms" in metrics:
            inp = metrics["inp_ms"]
            rep = sorted(inp, key=inp.get)[(len(inp) - 1) // 2]
            parts = " + ".join(stats.fmt(metrics[p].get(rep)) for p in PHASES)
            lines.append(f"  {'its median repetition':<24} INP {stats.fmt(inp[rep])} = {parts} "
                         "(input delay + processing + presentation)")
        for name, label in CHECKS:
            if name in metrics:
                lines.append(f"  {label:<52} {_spread(metrics[name])}")
        refused = max(metrics.get("refused_hosts", {0: 0}).values())
        if refused:
            lines.append(f"  refused requests to {refused:.0f} host(s) beyond 127.0.0.1, the page's or the browser's own "
                         "(page-details/ names them)")
    return "\n".join(lines)
