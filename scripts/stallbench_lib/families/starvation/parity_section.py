"""Report section of the `starvation/parity` benchmark: the model beside each Node line on the
shipped ordering scenarios (the parity matrix) and the main-module race's odds, model vs Node."""
from ...rendering import grouping, stats, table
from ...runtimes import label as runtime_label
from ...rendering.figures import corner_legend, figure, save

METRICS = ("model_expected_pct", "node_expected_pct", "model_first_pct", "node_first_pct", "expected_orders")

READING = """\
Each Node line the run chose runs every shipped ordering scenario from its generated JavaScript,
and the model of that line runs it as many times, after being given that Node's start-up tail
(measured on the line, from the clock read of a main module's first timer to the loop's first
timers check). A deterministic scenario **agrees** when every run on both sides gave the order
the scenario expects on that line; a **race** (a scenario that allows several orders) agrees when
both sides gave only allowed orders, and the cell shows how often each gave the first allowed
order (for main-timeout-vs-immediate: the immediate first). Profile `nightly` runs every
scenario; the others run the races only.
"""


def _cells(rows):
    """(runtime, scenario) -> {metric: mean over repetitions}; runtimes in first-seen order."""
    values = grouping.values(rows, lambda p: (runtime_label(p), p["scenario"]) if "scenario" in p else None,
                             benchmark="parity", metrics=METRICS)
    return {key: {m: sum(v) / len(v) for m, v in by_metric.items()} for key, by_metric in values.items()}


def _verdict(m: dict) -> str:
    both = min(m["model_expected_pct"], m["node_expected_pct"])
    if both < 100:
        return (f"**DISAGREE** (expected order: model {m['model_expected_pct']:.0f}%, "
                f"Node {m['node_expected_pct']:.0f}% of runs)")
    if m["expected_orders"] > 1:
        return f"race: {m['model_first_pct']:.0f}% \\| {m['node_first_pct']:.0f}%"
    return "agree"


def _matrix(cells, runtimes, scenarios) -> str:
    rows = [[scenario, *(_verdict(cells[(rt, scenario)]) if (rt, scenario) in cells else None for rt in runtimes)]
            for scenario in scenarios]
    summary = []
    for rt in runtimes:
        deterministic = [cells[(rt, s)] for s in scenarios if (rt, s) in cells and cells[(rt, s)]["expected_orders"] <= 1]
        if deterministic:
            agree = sum(_verdict(m) == "agree" for m in deterministic)
            summary.append(f"{rt}: {agree} of {len(deterministic)} deterministic scenarios agree "
                           f"({100 * agree / len(deterministic):.0f}%)")
    return table.markdown(["scenario", *runtimes], rows) + "\n" + ("; ".join(summary) + ".\n" if summary else "")


def _odds_plot(context, cells, runtimes, races):
    fig, ax = figure(figsize=(max(5, 1.6 * len(runtimes) * len(races)), 3.8))
    labels, x = [], 0
    for race in races:
        for rt in runtimes:
            m = cells.get((rt, race))
            if m is None:
                continue
            for k, (who, colour) in enumerate([("model", "#1f77b4"), ("node", "#ff7f0e")]):
                value = m[f"{who}_first_pct"]
                ax.bar(x + (k - 0.5) * 0.38, value, width=0.36, color=colour, label=who if x == 0 else None)
                ax.annotate(f"{value:.0f}", (x + (k - 0.5) * 0.38, value), xytext=(0, 2), textcoords="offset points",
                            ha="center", fontsize=8)
            labels.append((x, f"{rt}\n{race}" if len(races) > 1 else rt))
            x += 1
    ax.set_xticks([p for p, _ in labels], [t for _, t in labels], fontsize=8)
    ax.set_ylim(0, 110)
    ax.set_ylabel("% of runs in the first allowed order")
    ax.set_title("Races from the main module: the model of each line (blue) beside that Node line (orange)", fontsize=10)
    corner_legend(ax)
    return save(fig, context.out, "starvation-race-odds", "how often each race went each way, model vs Node, per line")


def section(context) -> str:
    cells = _cells(context.rows)
    if not cells:
        return ""
    runtimes = list(dict.fromkeys(rt for rt, _ in cells))
    scenarios = sorted({s for _, s in cells})
    races = [s for s in scenarios if any(cells[(rt, s)]["expected_orders"] > 1 for rt in runtimes if (rt, s) in cells)]
    tails = stats.values_by_cell(context.rows, "startup_tail_ms")
    tail_text = "; ".join(f"{runtime_label(p)} {stats.fmt(stats.median(v), 3)} ms" for p, v in tails.items())
    parts = ["### The model beside each Node line (parity)\n", READING,
             f"Node's start-up tail (median of the probes), spent by the model before its loop: {tail_text}.\n",
             _matrix(cells, runtimes, scenarios)]
    if races:
        parts.append(_odds_plot(context, cells, runtimes, races))
    return "\n".join(parts)
