"""Report section for family `regex`: the patterns x engines matrix, time-against-length plots
per pattern (log scale, one line per engine, the budget drawn, where each curve was censored),
correctness findings (engines with wrong answers are not classified), for a --scan the risky
regexes first, and throughput on ordinary text."""
import html

from matplotlib.lines import Line2D

from . import agreement, summary, triage, verify
from ... import runtimes
from .curves import curves
from .engines import Engines
from .patterns import SAFE_SUFFIX, doubts
from ...rendering import stats, table
from ...rendering.figures import colours_for, corner_legend, figure, save
from ...tidy import read_csv

# What this section reads of benches/regex.cc, checked against the run's declarations (render.py);
# the engines and the budget come from the same declarations.
CONSUMES = {"match": ("match_ms", "matched"), "throughput": ("throughput_mb_s",)}
PARAMETERS = {"match": ("engine", "pattern"), "throughput": ("engine",)}
STOP_MARKERS = {"timeout": "^", "guarded": "s", "crashed": "X", "error": "*"}

READING = """\
Each cell runs one engine on one pattern at one input length, in its own process, within a time
budget (compile, warm-up and timed matches together; the cell is killed when it overruns). A cell's
time is the median of its timed matches after the warm-up. With `stallbench regex`, lengths escalate
per engine and pattern until a cell does not finish; that engine is not run at longer lengths of
that pattern: its curve is **censored** there (a marker on the budget line: ▲ over the budget, ■
the engine's guard fired, ✖ the process crashed). Then the curves are refined: lengths are added
inside a turn that too few points passed, and the cells of a growth verdict the machine's noise
could have made are measured again, the engines side by side; a length measured twice counts its
faster cell (load only adds time). In the plot each engine has a colour, the pattern a solid line
and its safe rewrite a dashed one.

The **verdict** comes first from the answers: an engine whose match / no match differs from the
reference (V8 for patterns found in JavaScript, else the majority of implementations) shows
`wrong answers`, one that disagreed where nothing could decide who is right `disputed answers`;
neither is classified. Otherwise it comes from the finished points, fitted over the top of the
curve against the pumped length (the input less the attack's fixed parts): `linear`, `poly k`
(time ∝ n^k), `exp xb` (time ∝ b^n, b per byte; the seed's ×4 per 2 characters is b = 2); `>L`
after it: the curve was flat up to length L and grew from there (a regime change); `grows >L`:
it grew past L, but too few points past the turn to read a degree (three at least). A fitted
curve that then stopped shows how (`linear, crashed@65536`). With too few points to fit, the
status that ended the curve: `guarded` (Boost's error_complexity, PCRE2's match or JIT-stack
limit, V8's backtrack stack), `crashed` (std::regex overflowing the stack), `timeout`;
`rejected`: the engine refused the pattern (or a flag). `(fell back)`: the engine ran the pattern
with another algorithm than its own: `node-linear` where V8's linear engine cannot take the pattern
(the `i` or `u` flag, a backreference, a lookahead, a large counted repeat) keeps backtracking as
`node` does (classification.csv's `fallback` says why). `NAME.safe` rows are the catalogue's
linear rewrites. V8 engines carry their Node line: `node@26`.
"""


def _declared_engines(context) -> list[str]:
    """Every engine the bench declares, in its order, each V8 engine once per Node line of the run:
    the order of the tables and what each engine's colour is assigned from."""
    return context.choices("match", "engine") or context.choices("throughput", "engine")


def _engines(context) -> list[str]:
    """The engines that ran, in the declared order (any the declarations do not name last)."""
    declared = _declared_engines(context)
    found = {runtimes.label(r.params, "engine") for r in context.rows + _triaged(context)}
    return [e for e in declared if e in found] + sorted(found - set(declared))


def _variants(rows):
    return list(dict.fromkeys(r.params["pattern"] for r in rows if r.benchmark == "match"))


def _matrix(found, variants, engines, patterns_meta) -> str:
    rows = []
    for variant, common, cells in summary.matrix_rows(found, variants, engines):
        entry = patterns_meta.get(variant.removesuffix(SAFE_SUFFIX), {})
        expect = "linear (rewrite)" if variant.endswith(SAFE_SUFFIX) else entry.get("expect") or None
        shown = [f"{text}<br>{summary.fmt_time(ms)}" if ms is not None else text for _, text, ms in cells]
        rows.append([f"`{variant}`", expect, entry.get("attack") or None, f"{common:,}" if common else None, *shown])
    return table.markdown(["pattern", "expect", "attack", table.number("at length"), *engines], rows)


def _risky_first(found, variants, engines, regex_meta) -> str:
    """For a --scan: every regex found, riskiest first, with where it was found."""
    scanned = regex_meta.get("scan")
    if not scanned:
        return ""
    patterns_meta = regex_meta.get("patterns", {})
    lines = ["### Regexes found in the source tree, risky first\n",
             "\n".join(f"- {html.escape(line, quote=False)}" for line in scanned["lines"]) + "\n"]
    columns = ["pattern", "found at", "regex", "attack",
               f"engines that blow up (input length past {summary.SLOW_MS:g} ms)", "linear", "wrong answers"]
    rows = []
    originals = [v for v in variants if not v.endswith(SAFE_SUFFIX)]
    for row in summary.risk_rows(found, originals, engines):
        entry = patterns_meta.get(row["variant"], {})
        blown = "; ".join(f"{b['engine']} {b['verdict']}" + (f" ({b['slow_at']:,})" if b["slow_at"] else "")
                          for b in row["blow_up"]) or "none"
        regex = html.escape(entry.get("regex", ""), quote=False)
        rows.append([f"`{row['variant']}`", html.escape(entry.get("source", ""), quote=False),
                     f"`/{regex}/{entry.get('flags', '')}`", entry.get("attack", ""), blown,
                     ", ".join(row["linear"]) or None, ", ".join(row["wrong"]) or None])
    return "\n".join(lines) + "\n" + table.markdown(columns, rows)


MAX_PANELS = 12  # curves drawn at most: a scan's riskiest regexes


def panels(found, names: list[str], engines: list[str]) -> tuple[list[str], str]:
    """The patterns whose curves are drawn, and what the report says of the others: every one, up to
    MAX_PANELS; past that (a dependency tree, where a panel per regex is a page tall) the riskiest
    that blow up on some engine."""
    if len(names) <= MAX_PANELS:
        return names, ""
    risky = [row["variant"] for row in summary.risk_rows(found, names, engines) if row["blow_up"]]
    return risky[:MAX_PANELS], (f"Curves of the {min(len(risky), MAX_PANELS)} riskiest of the {len(names)} regexes "
                                f"({len(risky)} blow up on some engine; the table above and `classification.csv` "
                                "have every one).\n")


def _draw_variant(ax, curve, colour, dashed, budget_ms):
    if curve.points:
        xs, ys = zip(*curve.points)
        ax.plot(xs, ys, marker="o", ms=3, lw=1.2, ls="--" if dashed else "-", color=colour,
                mfc="white" if dashed else colour)
    if curve.stop and curve.stop.status in STOP_MARKERS:
        ax.scatter([curve.stop.length], [budget_ms], marker=STOP_MARKERS[curve.stop.status], s=50, zorder=5,
                   color="white" if dashed else colour, edgecolors=colour, clip_on=False)


def drawn_curves(found, name, engines) -> tuple[list, set[tuple[str, str]]]:
    """The curves a pattern's panel draws, each with whether it is the safe rewrite's (dashed), and the
    (engine, engine it ran as) of those it leaves out: a curve taken from the engine whose algorithm
    it fell back to (node-linear backtracking as node does) is that engine's own, drawn once, in its
    colour, and the legend says so."""
    drawn, not_again = [], set()
    for engine in engines:
        for variant, dashed in ((name, False), (name + SAFE_SUFFIX, True)):
            curve = found.get((variant, engine))
            if curve is None:
                continue
            if curve.measured_as and (variant, curve.measured_as) in found and curve.measured_as in engines:
                not_again.add((engine, curve.measured_as))
            else:
                drawn.append((curve, dashed))
    return drawn, not_again


def _plot_curves(context, names, found, engines, budget_ms):
    """Small multiples: one panel per pattern, one colour per engine, the safe rewrite dashed. One
    figure rather than one per pattern: on a busy 2-core machine each saved figure costs seconds.
    The legend takes the empty panel when there is one, else it stands right of the panels."""
    colours = colours_for(_declared_engines(context) + engines)
    columns = 2 if len(names) > 1 else 1
    rows = (len(names) + columns - 1) // columns
    fig, axes = figure(rows, columns, figsize=(5.6 * columns, 3.4 * rows), squeeze=False)
    ran_as = set()
    for ax, name in zip(axes.flat, names):
        lengths = []
        drawn, not_again = drawn_curves(found, name, engines)
        ran_as |= not_again
        for curve, dashed in drawn:
            _draw_variant(ax, curve, colours[curve.engine], dashed, budget_ms)
            lengths += [n for n, _ in curve.points] + ([curve.stop.length] if curve.stop else [])
        ax.axhline(budget_ms, color="black", ls=":", lw=1)
        ax.set_yscale("log")
        if lengths and max(lengths) > 20 * min(lengths):
            ax.set_xscale("log")
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    spare = list(axes.flat[len(names):])
    for ax in spare:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("median match (ms, log)", fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("input length (characters)", fontsize=8)
    handles = [Line2D([], [], color=colours[e], label=e) for e in engines]
    handles += [Line2D([], [], color="grey", ls=ls, label=label)
                for ls, label in (("-", "pattern"), ("--", "safe rewrite"), (":", f"budget {budget_ms:g} ms"))]
    handles += [Line2D([], [], ls="", marker=m, color="grey", label=f"stopped: {status}")
                for status, m in STOP_MARKERS.items()]
    handles += [Line2D([], [], ls="", label=f"{engine}: where it fell back, {measured_as}'s curve")
                for engine, measured_as in sorted(ran_as)]
    fig.suptitle("Match time against input length (censored curves end on the budget line)", fontsize=11)
    fig.tight_layout()
    if spare:
        spare[0].legend(handles=handles, loc="center", ncol=2, fontsize=8, frameon=False)
    else:
        fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, frameon=False,
                   ncol=1 if len(handles) <= 16 else 2)
    return save(fig, context.out, "regex-curves", "match time against input length per pattern and engine")


def _correctness(context) -> str:
    regex_meta = context.run.meta.get("regex", {})
    checks = regex_meta.get("correctness")
    if checks is None:  # a run made by `stallbench run`: only what the rows tell
        checks = _row_checks(context)
    samples = regex_meta.get("sample_check", {})
    lines = ["### Correctness\n"]
    count = checks["disagreements"]
    if count:
        lines.append(f"**Engines disagreed on {count:,} inputs** (a bug in an engine or an adapter, or a difference "
                     "in regex dialect; every one is in the run's `disagreements.csv`), one line per pattern and "
                     "engine:\n")
        lines += [f"- {html.escape(line, quote=False)}"
                  for line in agreement.finding_lines(checks.get("wrong_answers", {}), checks.get("unresolved", []))]
    else:
        lines.append("Engines that finished agreed on match / no match for every attack input"
                     + (" and every sample input." if samples else "."))
    if samples:
        total = sum(s["inputs"] for s in samples.values())
        failed = [f"`{n}` ({s['status']})" for n, s in samples.items() if s["status"] != "ok"]
        lines.append(f"\nSample check: {total:,} inputs (random strings over each pattern's alphabet, the short "
                     "attack inputs, and those with one or two random edits), every engine, original and rewrite."
                     + (f" Did not finish: {', '.join(failed)}." if failed else ""))
    if checks["counterexamples"]:
        lines.append("\n**Safe rewrites that are not the same language** (input: original's answer → rewrite's):\n")
        for c in checks["counterexamples"]:
            lines.append(f"- `{c['pattern']}`: {html.escape(c['input'], quote=False)}: {'match' if c['original'] else 'no match'} → "
                         f"{'match' if c['safe'] else 'no match'} ({', '.join(c['engines'])})")
    elif samples:
        lines.append("\nEvery safe rewrite answered as its original on every input checked.")
    return "\n".join(lines) + "\n"


def _row_checks(context) -> dict:
    """What the rows alone tell (a run made by `stallbench run`): attack-input disagreements, judged
    by the majority."""
    disagreements = agreement.cell_disagreements(context.rows)
    judged = agreement.judge(disagreements, {}, Engines.from_meta(context.run.meta))
    return {"disagreements": len(disagreements),
            "counterexamples": [vars(c) for c in agreement.cell_counterexamples(context.rows)],
            "wrong_answers": judged.wrong, "unresolved": judged.unresolved}


def _throughput(context, engines) -> str:
    found = summary.throughput_cells(context.rows)
    if not found:
        return ""
    lines = ["### Throughput on ordinary text\n",
             "Every line of a generated prose corpus searched, as `grep -c` does; megabytes of text per second "
             "(median pass). Every engine's count of matching lines is checked against a plain string scan.\n"]
    rows = []
    fig, ax = figure(figsize=(8, 3.6))
    colours = colours_for(_declared_engines(context) + engines)
    width = 0.8 / max(1, len(engines))
    for i, (name, by_engine) in enumerate(found.items()):
        shown = []
        for j, engine in enumerate(engines):
            value = by_engine.get(engine, "–")
            if isinstance(value, float):
                ax.bar(i + (j - len(engines) / 2 + 0.5) * width, value, width, color=colours[engine],
                       label=engine if i == 0 else None)
                value = stats.fmt(value, 0)
            shown.append(value)
        rows.append([name, *shown])
    ax.set_xticks(range(len(found)), list(found))
    ax.set_yscale("log")
    ax.set_ylabel("MB/s (log)")
    ax.set_title("Throughput on ordinary text (higher is better)", fontsize=10)
    corner_legend(ax, fontsize=7, ncol=2)
    return ("\n".join(lines) + "\n" + table.markdown(["pattern", *map(table.number, engines)], rows) + "\n"
            + save(fig, context.out, "regex-throughput", "throughput per engine"))


def _triaged(context) -> list:
    """A --scan's match rows, measured in the probe: the triage's and the escalation's."""
    paths = (context.run.path / name for name in (triage.TRIAGE_FILE, triage.ESCALATION_FILE))
    return [r for path in paths if path.exists() for r in read_csv(path)]


def _refined(context) -> str:
    refined = context.run.meta.get("regex", {}).get("refined", [])
    if not refined:
        return ""
    inside = sum(1 for r in refined if r["why"] == "inside the turn")
    return (f"Refined after the escalation: {inside} cells inside turns, {len(refined) - inside} cells measured "
            "again (meta.json `regex.refined` lists them).\n")


def _censoring(context) -> str:
    censoring = context.run.meta.get("regex", {}).get("censoring", [])
    if not censoring:
        return ""
    items = [f"{c['engine']} on `{c['pattern']}` at {c['at_length']:,} ({c['status']})" for c in censoring]
    return "Censored (not run at longer lengths): " + "; ".join(items) + ".\n"


def _overrun(context) -> str:
    over = context.run.meta.get("regex", {}).get("overrun")
    if not over or over.get("max_ratio") is None:
        return ""
    return (f"Budget check: the slowest of {over['cells']} match cells took {over['max_ratio']:.2f}× the budget, "
            f"first repetition's start to exit ({over['worst_cell']}, {over['worst_status']}); {over['cells_over_1_2']} took "
            "more than 1.2×.\n")


def _nodes(context) -> str:
    """The Node line behind each V8 engine value (meta.json `nodes`, recorded by the orchestrator)."""
    nodes = context.run.meta.get("nodes") or []
    if not nodes:
        return ""
    return "V8 engines per Node line: " + "; ".join(
        f"`@{n['line']}`: Node {n['version']} (V8 {n['v8']})" for n in nodes) + ".\n"


def sections(context) -> str:
    match_rows = [r for r in context.rows if r.benchmark == "match"] + _triaged(context)
    engines = _engines(context)
    parts = []
    if match_rows:
        regex_meta = context.run.meta.get("regex", {})
        budget_ms = regex_meta.get("budget_ms") or context.constant("match", "budget_ms")
        checks = regex_meta.get("correctness") or _row_checks(context)
        offsets = {name: entry.get("fixed", 0) for name, entry in regex_meta.get("patterns", {}).items()}
        offsets.update({name + SAFE_SUFFIX: fixed for name, fixed in offsets.items()})
        fallbacks, table = verify.fallbacks(regex_meta.get("sample_check", {})), Engines.from_meta(context.run.meta)
        found = curves(match_rows, offsets, checks.get("wrong_answers", {}), fallbacks, checks.get("unresolved", []),
                       doubts({name: entry.get("attack") or ""
                               for name, entry in regex_meta.get("patterns", {}).items()}),
                       table.automata(), table.measured_as(fallbacks))
        variants = _variants(match_rows)
        parts += ["### Catastrophic backtracking (ReDoS)\n", READING, _nodes(context),
                  _risky_first(found, variants, engines, regex_meta),
                  f"Budget per cell: {budget_ms:g} ms. Matrix: verdict per engine, and the median time at the largest "
                  "length every engine that compiled the pattern finished (`at length`).\n",
                  _matrix(found, variants, engines, regex_meta.get("patterns", {})), _overrun(context),
                  _censoring(context), _refined(context)]
        names, note = panels(found, list(dict.fromkeys(v.removesuffix(SAFE_SUFFIX) for v in variants)), engines)
        parts.append(note)
        if names:
            parts.append(_plot_curves(context, names, found, engines, budget_ms))
        parts.append(_correctness(context))
    parts.append(_throughput(context, engines))
    return "\n".join(p for p in parts if p)
