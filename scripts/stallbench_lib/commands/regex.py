"""stallbench regex: the ReDoS study. Every engine x pattern (and its safe rewrite) x length runs in
its own process within a time budget; lengths escalate until a cell fails (over budget, guarded,
crashed, rejected) and that engine then stops on that pattern, the censoring recorded. Then:
growth classification per engine x pattern, correctness cross-checks, throughput on text."""
import os
import sys
from dataclasses import asdict
from pathlib import Path

from .. import build, catalogue, numbers, paths
from ..atomic import atomic_write
from ..errors import UsageError
from ..execute import execute, run_meta
from ..plan import Cell
from ..redos import agreement, checker, patterns, summary, verify
from ..redos.curves import curves
from ..redos.escalation import Escalation
from ..report.render import render

NAME = "regex"
ORDER = 2
HELP = ("ReDoS study: engines x patterns with lengths escalating until a cell overruns its budget; "
        "growth classification, correctness cross-checks, throughput on text")
BUDGET_RANGE = (10, 600_000)
DEFAULT_BUDGET_MS = 1000


def add_arguments(p):
    p.add_argument("--patterns", metavar="FILE", type=Path, default=patterns.SHIPPED,
                   help="pattern catalogue (TOML, [[pattern]] tables; default: the shipped one)")
    p.add_argument("--engines", metavar="E1,E2", help="engines to run (default: every one this build has)")
    p.add_argument("--lengths", metavar="N1,N2", help="input lengths for every pattern, instead of each entry's own")
    p.add_argument("--budget-ms", metavar="N", type=numbers.integer_option, default=DEFAULT_BUDGET_MS,
                   help=f"time budget of one cell, compile to exit (default {DEFAULT_BUDGET_MS})")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="put the run directory under DIR (and its report in it) instead of results/runs/")
    p.add_argument("--no-throughput", action="store_true", help="skip the throughput benchmark on ordinary text")
    p.add_argument("--no-build", action="store_true", help="use the existing build; fail if there is none")
    p.add_argument("--no-report", action="store_true", help="skip rendering the report")


def _list(text: str | None, what: str) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",")
    if "" in items:
        raise UsageError(f"{what} {text!r}: expected a comma-separated list with no empty item")
    return items


def _lengths(text: str | None, catalogue_patterns) -> list[int] | None:
    items = _list(text, "--lengths")
    if items is None:
        return None
    shortest = max(len(p.prefix) + len(p.suffix) for p in catalogue_patterns)
    try:
        return patterns.check_lengths([n if (v := numbers.integer(n)) is None else v for n in items], shortest)
    except ValueError as e:
        raise UsageError(f"--lengths {text}: {e}")


def _engines(text: str | None, available: list[str]) -> list[str]:
    missing_node = "" if "node" in available else " (node and node-linear need node on PATH, which was not found)"
    chosen = _list(text, "--engines")
    if chosen is None:
        if missing_node:
            print("stallbench: node not found on PATH: engines node and node-linear are left out", file=sys.stderr)
        return available
    for engine in chosen:
        if engine not in available:
            raise UsageError(f"--engines: {engine!r} is not available (valid: {', '.join(available)}){missing_node}")
    return list(dict.fromkeys(chosen))


def _regex_family(build_dir: Path):
    binaries = build.bench_binaries(build_dir)
    if "regex" not in binaries:
        raise UsageError(f"the regex benchmarks are not built in {build_dir}")
    family = catalogue.describe(binaries["regex"])
    return family, family.benchmarks[0], family.benchmarks[1]


def _settings(args, path, catalogue_patterns, engines, lengths, samples) -> dict:
    return {"profile": "regex", "repetitions": 1, "regex": {
        "patterns_file": str(path), "budget_ms": args.budget_ms, "engines": engines, "lengths_override": lengths,
        "patterns": {p.name: {"regex": p.regex, "safe": p.safe, "prefix": p.prefix, "pump": p.pump, "suffix": p.suffix,
                              "lengths": lengths or p.lengths, "expect": p.expect, "source": p.source}
                     for p in catalogue_patterns},
        "sample_check": samples}}


def _print_findings(correctness: dict, samples: dict) -> None:
    for d in correctness["disagreements"]:
        print(f"DISAGREEMENT on {d['pattern']}, input {d['input']}: {d['answers']}", file=sys.stderr)
    for name, found in samples.items():
        if found["status"] != "ok":
            print(f"sample check of {name} {found['status']}", file=sys.stderr)
        for d in found["disagreements"]:
            print(f"DISAGREEMENT on {d['pattern']}, sample input {d['input']}: {d['answers']}", file=sys.stderr)
    for c in correctness["counterexamples"]:
        print(f"safe rewrite of {c['pattern']} differs on {c['input']}: original {c['original']}, "
              f"rewrite {c['safe']} ({', '.join(c['engines'])})", file=sys.stderr)


def run(args) -> int:
    path = args.patterns.resolve()
    catalogue_patterns = patterns.load(path)
    lengths = _lengths(args.lengths, catalogue_patterns)
    if not BUDGET_RANGE[0] <= args.budget_ms <= BUDGET_RANGE[1]:
        raise UsageError(f"--budget-ms {args.budget_ms} is out of range: valid values are "
                         f"{BUDGET_RANGE[0]}-{BUDGET_RANGE[1]}")
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    # The bench binary reads the catalogue and the budget from here, in every cell and when described.
    os.environ["STALLBENCH_REGEX_PATTERNS"] = str(path)
    os.environ["STALLBENCH_REGEX_BUDGET_MS"] = str(args.budget_ms)
    family, match, throughput = _regex_family(build_dir)
    available = match.param("engine").choices
    engines = _engines(args.engines, available)
    check_binary = checker.binary(build_dir)
    checker.require_some_engine_accepts(check_binary, available, catalogue_patterns, path)

    print("stallbench: checking safe rewrites and engine agreement on sample inputs ...", file=sys.stderr, flush=True)
    samples = verify.check_all(check_binary, engines, catalogue_patterns)
    escalation = Escalation(match, patterns.variants(catalogue_patterns), engines, lengths)
    cells = list(escalation.cells)
    if not args.no_throughput:
        cells += [Cell(throughput, {"engine": e, "pattern": p, "length": throughput.param("length").values[0]})
                  for p in throughput.param("pattern").values for e in engines]
    meta = run_meta([family], build_dir, _settings(args, path, catalogue_patterns, engines, lengths, samples))
    result = execute(cells, 1, args.out or paths.RUNS, meta, skip=escalation.skip, finished=escalation.finished)

    by_name = {p.name: p for p in catalogue_patterns}
    render_input = lambda name, n: by_name[name.removesuffix(patterns.SAFE_SUFFIX)].attack_input(n)
    correctness = {"disagreements": [asdict(d) for d in agreement.cell_disagreements(result.rows, render_input)],
                   "counterexamples": [asdict(c) for c in agreement.cell_counterexamples(result.rows, render_input)]}
    for name, found in samples.items():
        correctness["counterexamples"] += found["counterexamples"]
    found_curves = curves(result.rows)
    result.meta["regex"].update(censoring=[asdict(c) for c in escalation.censoring()], correctness=correctness,
                                overrun=summary.overrun(escalation.times, args.budget_ms))
    result.save()
    atomic_write(result.path / "classification.csv", summary.classification_csv(found_curves))

    variants = [v.name for v in patterns.variants(catalogue_patterns)]
    print(summary.matrix_text(found_curves, variants, engines))
    if not args.no_throughput:
        print(summary.throughput_text(result.rows, engines))
    _print_findings(correctness, samples)
    over = result.meta["regex"]["overrun"]
    if over["max_ratio"] is not None:
        print(f"budget {args.budget_ms} ms: slowest match cell took {over['max_ratio']:.2f}x the budget "
              f"({over['worst_cell']}, {over['worst_status']}); {over['cells_over_1_2']} of {over['cells']} over 1.2x")
    load = ", ".join(f"{x:.1f}" for x in result.meta["machine"]["load_average_start"])
    print(f"load average at the start: {load} on {result.meta['machine']['cores']} cores: times are noisy when "
          "the machine is shared; compare ratios within this run")
    print(f"results: {result.path / 'results.csv'}")
    print(f"classification: {result.path / 'classification.csv'}")
    if not args.no_report:
        report = render(result.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
    disagreed = correctness["disagreements"] or any(s["disagreements"] for s in samples.values())
    errors = any(r.status == "error" for r in result.rows)
    return 1 if disagreed or errors else 0
