"""stallbench regex: the ReDoS study. The patterns come from a catalogue (--patterns), the command
line (--pattern) or a source tree (--scan DIR); an entry without an attack gets one from recheck.
Every engine x pattern (and its safe rewrite) x length runs in its own process within a time
budget; lengths escalate until a cell fails (over budget, guarded, crashed, rejected) and that
engine then stops on that pattern, the censoring recorded. Then: answers checked against a
reference (an engine answering wrongly is not classified), growth classification per engine x
pattern, throughput on text. A --scan splits across machines by regex (--shard K/N --group ID:
families/regex/scan_shards.py), its shards joined by `stallbench merge` (families/regex/merge.py)."""
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from .... import (
    build, catalogue, common_options, node as nodejs, numbers, optional, os_packages, paths, runtimes,
    served_cells, shard_plan, shards)
from ....atomic import atomic_write
from ....errors import UsageError
from ....execute import execute, run_meta
from ....plan import Cell
from .. import (
    agreement, attacks, cache, catalogue_file, checker, dialects, native_probe, outcome, patterns, scan,
    scan_shards, scan_steps, summary, triage, upgrade, verify)
from ..curves import curves
from ..engines import Engines
from ..scan_clock import Clock
from ..escalation import Escalation
from ....tidy import write_csv

NAME = "regex"
ORDER = 2
HELP = ("ReDoS study: engines x patterns (a catalogue, --pattern, or --scan of a source tree) with lengths "
        "escalating until a cell overruns its budget; attacks found by recheck, answers checked, growth classified")
BUDGET_RANGE = (10, 600_000)
DEFAULT_BUDGET_MS = 1000


def add_arguments(p):
    source = p.add_mutually_exclusive_group()
    source.add_argument("--patterns", metavar="FILE", type=Path,
                        help="pattern catalogue (TOML, [[pattern]] tables; default: the shipped one)")
    source.add_argument("--pattern", metavar="RE", action="append",
                        help="a regex to study (repeatable); its attack is found by recheck")
    source.add_argument("--scan", metavar="DIR", type=Path,
                        help="study every constant regex of the sources under DIR (JavaScript/TypeScript, Python, Ruby, "
                             "Java, Go), each on its own language's engine and every other")
    source.add_argument("--upgrade-catalogue", metavar="FILE", type=Path,
                        help=f"rewrite a catalogue of an older format in format {patterns.FORMAT} (the original is "
                             "kept beside it) and stop")
    p.add_argument("--flags", metavar="FLAGS", default="",
                   help="flags of the --pattern regexes: any of i, m, s, u, g, y")
    p.add_argument("--engines", metavar="E1,E2",
                   help="engines to run (default: every one this build has; node and node-linear once per Node line)")
    p.add_argument("--lengths", metavar="N1,N2", help="input lengths for every pattern, instead of each entry's own")
    p.add_argument("--budget-ms", metavar="N", type=numbers.integer_option, default=DEFAULT_BUDGET_MS,
                   help=f"time budget of one cell, compile to exit, once the engine's runtime has started "
                        f"(default {DEFAULT_BUDGET_MS})")
    nodejs.add_option(p, "the V8 engines (node, node-linear)")
    common_options.out(p, "put the run directory under DIR (and its report in it) instead of results/runs/")
    p.add_argument("--no-throughput", action="store_true", help="skip the throughput benchmark on ordinary text")
    p.add_argument("--throughput", action="store_true",
                   help="with --scan: run the throughput benchmark on ordinary text too (a scan measures the tree's "
                        "regexes; those cells measure the engines on three fixed patterns, the same for every tree)")
    p.add_argument("--no-triage", action="store_true",
                   help="with --scan: no triage; every regex escalated cell by cell, each cell its own process within "
                        "the budget, as a catalogue study is")
    p.add_argument("--cache", metavar="FILE", type=Path,
                   help=f"with --scan: the verdicts of regexes measured before, by engine and version (default: "
                        f"{cache.FILE} beside the run directories); a regex every engine has measured is not measured "
                        "again")
    p.add_argument("--no-cache", action="store_true", help="with --scan: measure every regex; keep no cache")
    shard_plan.add_options(p, "a --scan's regexes (each with all its engines)",
                           "every shard parses the whole tree; balanced by an estimate from each regex's text",
                           stored=False)
    common_options.no_build(p)
    common_options.no_report(p)


def _list(text: str | None, what: str) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",")
    if "" in items:
        raise UsageError(f"{what} {text!r}: expected a comma-separated list with no empty item")
    return items


def _lengths(text: str | None, catalogue_patterns=()) -> list[int] | None:
    """--lengths as integers; with the patterns (their attacks known), at least their fixed parts."""
    items = _list(text, "--lengths")
    if items is None:
        return None
    shortest = max((p.fixed for p in catalogue_patterns), default=0)
    try:
        return patterns.check_lengths([n if (v := numbers.integer(n)) is None else v for n in items], shortest)
    except ValueError as e:
        raise UsageError(f"--lengths {text}: {e}")


def _command_line_catalogue(regexes: list[str], flags: str) -> str:
    entries = [f"[[pattern]]\nname = \"pattern-{i}\"\nregex = {catalogue_file._string(r)}\n"
               f"flags = {catalogue_file._string(flags)}\nsource = \"command line\"\n"
               for i, r in enumerate(regexes, 1)]
    return "\n".join(entries)


def _catalogue(args) -> tuple[list[patterns.Pattern], str, scan.Scan | None]:
    """The patterns to study, where they came from, and the scan when --scan."""
    if args.flags and not args.pattern:
        raise UsageError("--flags applies to --pattern regexes; a catalogue entry has its own `flags`")
    if args.pattern:
        return patterns.parse(_command_line_catalogue(args.pattern, args.flags), "--pattern"), "command line", None
    if args.scan:
        found = scan.scan(args.scan)
        return found.patterns, f"scan of {found.root}", found
    path = (args.patterns or patterns.SHIPPED).resolve()
    return patterns.load(path), str(path), None


def _engines(text: str | None, available: list[str], per_line: list[str], nodes: list[nodejs.Node],
             node_option: str | None) -> list[str]:
    """The engines to run: the bench's by name, those that run per Node line once per line (node@26)."""
    expanded = [e for e in available if e not in per_line]
    expanded += [runtimes.of_line(n.line, e) for n in nodes for e in per_line if e in available]
    no_node = "" if nodes else " (no Node line chosen: see --node)"
    chosen = _list(text, "--engines")
    if chosen is None:
        if not nodes and node_option is None:
            print(f"stallbench: no Node line installable: engines {' and '.join(per_line)} are left out", file=sys.stderr)
        return expanded
    found = []
    for engine in chosen:
        matching = [e for e in expanded if e == engine or (engine in per_line and runtimes.base(e) == engine)]
        if not matching:
            raise UsageError(f"--engines: {engine!r} is not available (valid: {', '.join(expanded)}){no_node}")
        found += matching
    return list(dict.fromkeys(found))


def _describe(build_dir: Path, inputs: dict[str, str] | None = None):
    binaries = build.bench_binaries(build_dir)
    if "regex" not in binaries:
        raise UsageError(f"the regex benchmarks are not built in {build_dir}")
    family = catalogue.describe(binaries["regex"], inputs)
    return family, family.benchmarks[0], family.benchmarks[1]


def _settings(args, origin, resolved, engines, lengths, samples, nodes, analysis, found_scan) -> dict:
    return {"profile": "regex", "repetitions": 1, "nodes": [n.meta() for n in nodes], "regex": {
        "patterns_file": origin, "budget_ms": args.budget_ms, "engines": engines, "lengths_override": lengths,
        "patterns": {p.name: {"regex": p.regex, "safe": p.safe, "flags": p.flags, "fixed": p.fixed,
                              "lengths": p.snapped(lengths) if lengths else p.lengths_for(False),
                              "safe_lengths": p.snapped(lengths) if lengths else p.lengths_for(True),
                              "expect": p.expect,
                              "reference": p.reference, "attack": p.attack, "source": p.source}
                     for p in resolved},
        "recheck": analysis.recheck, "notes": analysis.notes,
        "scan": None if found_scan is None else {"root": str(found_scan.root), "files": found_scan.files,
                                                  "places": found_scan.places, "lines": scan.summary_lines(found_scan),
                                                  "regexes": [p.name for p in found_scan.patterns]},
        "sample_check": samples}}


def _resolve(catalogue_patterns, args, native) -> tuple[attacks.Analysis, list[int] | None]:
    needing = sum(1 for p in catalogue_patterns if not p.pumps)
    if needing:
        print(f"stallbench: finding attacks for {needing} pattern(s) with recheck ...", file=sys.stderr, flush=True)
    analysis = attacks.analyse(catalogue_patterns, native)
    for note in analysis.notes:
        print(f"stallbench: {note}", file=sys.stderr)
    for p in analysis.patterns:
        if p.name in analysis.recheck:
            print(f"  {p.name}: {p.attack}", file=sys.stderr)
    return analysis, _lengths(args.lengths, analysis.patterns)


def _correctness(result, rows, resolved, checked: verify.SampleCheck, table: Engines) -> dict:
    """Every disagreement (the attack inputs of the cells and the triage, the sample inputs) judged,
    and written to the run's disagreements.csv; for meta.json their count and the judgement."""
    by_name = {p.name: p for p in resolved}
    render_input = lambda name, n: by_name[name.removesuffix(patterns.SAFE_SUFFIX)].attack_input(n)
    disagreements = agreement.cell_disagreements(rows, render_input) + checked.disagreements
    references = {v.name: v.pattern.reference for v in patterns.variants(resolved)}
    judged = agreement.judge(disagreements, references, table)
    atomic_write(result.path / outcome.DISAGREEMENTS, agreement.csv_text(disagreements, references, table))
    counterexamples = [asdict(c) for c in agreement.cell_counterexamples(rows, render_input)]
    for found in checked.per_pattern.values():
        counterexamples += found["counterexamples"]
    return {"disagreements": len(disagreements), "counterexamples": counterexamples, "wrong_answers": judged.wrong,
            "unresolved": judged.unresolved}


def run(args) -> int:
    if args.upgrade_catalogue:
        print(upgrade.upgrade(args.upgrade_catalogue))
        return 0
    if (args.cache or args.no_cache) and args.scan is None:
        raise UsageError("--cache and --no-cache apply to --scan (a catalogue is a study: every regex is measured)")
    if args.throughput and (args.scan is None or args.no_throughput):
        raise UsageError("--throughput applies to --scan without --no-throughput (a catalogue study runs the "
                         "throughput cells unless --no-throughput)")
    shard = shards.parse(args.shard) if args.shard is not None else None
    shard_plan.check_group(shard, args.group)
    if shard is not None and args.scan is None:
        raise UsageError("--shard applies to --scan (a catalogue study is not split across machines)")
    store = None if args.scan is None or args.no_cache else scan_steps.cache_of(args.cache, args.out)
    clock = Clock()
    with clock.step("listing"):
        catalogue_patterns, origin, found_scan = _catalogue(args)
    _lengths(args.lengths)
    if not BUDGET_RANGE[0] <= args.budget_ms <= BUDGET_RANGE[1]:
        raise UsageError(f"--budget-ms {args.budget_ms} is out of range: valid values are "
                         f"{BUDGET_RANGE[0]}-{BUDGET_RANGE[1]}")
    nodes = nodejs.choose(args.node)
    if not args.no_build:
        os_packages.ensure(["regex"])  # the engines: this family's package list
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    declared, declared_match, _ = _describe(build_dir)  # the engines do not depend on the catalogue
    # The helpers a study needs, checked before anything is measured: a build for fewer targets lacks them.
    check_binary = checker.binary(build_dir)
    probe_binary = triage.binary(build_dir) if found_scan is not None and not args.no_triage else None
    table = Engines.from_family(declared)
    engines = _engines(args.engines, declared_match.param("engine").choices, table.per_node_line(), nodes, args.node)
    versions = table.versions(engines, declared.versions, nodes)
    # A scan's question is the tree's regexes: the throughput cells (fixed patterns on prose, 15 s idle and
    # 43 s beside two spinners per core on 15 engines) run only when asked for.
    runs_throughput = not args.no_throughput and (found_scan is None or args.throughput)
    cached, seen, part = {}, [], {}
    if found_scan is not None:
        catalogue_patterns = scan.with_reference(found_scan, catalogue_patterns, table)
        for line in scan.summary_lines(found_scan):
            print(f"stallbench: {line}", file=sys.stderr)
        if shard is not None:
            catalogue_patterns, runs_throughput, record = scan_shards.split(
                catalogue_patterns, len(engines), runs_throughput, shard, args.group)
            part = {"shard": record}
            print(f"stallbench: shard {shard} of group {args.group}: {len(catalogue_patterns)} of "
                  f"{len(found_scan.patterns)} regexes" + (", and the throughput cells" if runs_throughput else ""),
                  file=sys.stderr)
        cached, seen = scan_steps.answered(store, catalogue_patterns, versions)
        catalogue_patterns = [p for p in catalogue_patterns if p.name not in cached]
        if seen:
            print(f"stallbench: {len(seen)} of {len(seen) + len(catalogue_patterns)} regexes measured before by these "
                  f"engine versions (cache {store.path}): not measured again", file=sys.stderr)
        if not catalogue_patterns:
            print(summary.risk_text(summary.risk_rows({}, [], engines, cached, {p.name: p.reference for p in seen}),
                                    outcome.described([], outcome.cached_entries(cached, seen))))
            if shard is not None:  # the merge must find every shard, one with nothing to measure too
                settings = _settings(args, origin, [], engines, None, {}, nodes, attacks.Analysis([]), found_scan)
                settings["regex"]["cached"] = outcome.cached_entries(cached, seen)
                result = execute([], 1, args.out or paths.RUNS, run_meta([declared], build_dir, {**settings, **part}))
                print(f"results: {result.path}")
            return 0
    patterns.check_references(catalogue_patterns, table, origin)
    catalogue_patterns = dialects.with_native_reference(catalogue_patterns, table)
    with clock.step("attacks"):
        native = native_probe.OwnEngines(build_dir, table, declared_match.param("engine").choices,
                                         {n.line: str(n.path) for n in nodes}, attacks.PROBE["slow_ms"])
        analysis, lengths = _resolve(catalogue_patterns, args, native)
    clock.items("attacks", {name: sum((said.get("ms") or {}).values()) / 1000
                            for name, said in analysis.recheck.items()})
    resolved = analysis.patterns
    with tempfile.TemporaryDirectory(prefix="stallbench-regex-") as scratch:
        # The bench binary reads the resolved catalogue and the budget from its inputs, in every cell.
        resolved_file = Path(scratch) / "catalogue.toml"
        resolved_text = catalogue_file.to_toml(resolved, f"Patterns from: {origin}")
        resolved_file.write_text(resolved_text)
        inputs = {"patterns": str(resolved_file), "budget_ms": str(args.budget_ms)}
        family, match, throughput = _describe(build_dir, inputs)
        node_paths = {n.line: n.path for n in nodes}
        with clock.step("compile check"):
            checker.require_some_engine_accepts(check_binary, engines, resolved, Path(origin), node_paths, table)

        print("stallbench: checking engine answers and safe rewrites on sample inputs ...", file=sys.stderr, flush=True)
        with clock.step("sample check"):
            checked = verify.check_all(check_binary, engines, resolved, analysis.generated, node_paths)
        only, triaged, escalated = None, [], []
        fallbacks = verify.fallbacks(checked.per_pattern)
        measured_as = table.measured_as(fallbacks, engines)
        if found_scan is not None and not args.no_triage:
            # A scan measures in the probe, one process per engine: no match cell is left to run.
            with clock.step("triage"):
                grew, triaged, where_grew = scan_steps.triaged(probe_binary, engines, patterns.variants(resolved),
                                                               node_paths, clock, table.automata(engines), measured_as)
            with clock.step("escalation"):
                escalated = scan_steps.escalated(probe_binary, grew, patterns.variants(resolved), node_paths,
                                                 lengths, clock, where_grew)
            only = set()
        escalation = Escalation(match, patterns.variants(resolved), engines, lengths, tuple(nodes), inputs, only)
        cells = list(escalation.cells)
        if runs_throughput:
            length = throughput.param("length").values[0]
            cells += [Cell(throughput, {**runtimes.params_of(e, "engine"), "pattern": p, "length": length},
                           tuple(nodes), inputs)
                      for p in throughput.param("pattern").values for e in engines]
        settings = _settings(args, origin, resolved, engines, lengths, checked.per_pattern, nodes, analysis, found_scan)
        meta = run_meta([family], build_dir, {**settings, **part})
        with clock.step("cells"), served_cells.ServedCells(apart=("engine", runtimes.NODE_LINE)) as served:
            result = execute(cells, 1, args.out or paths.RUNS, meta, skip=escalation.skip, finished=escalation.finished,
                             notices=optional.notices(build_dir, {family.name}, args.no_build), more=escalation.more,
                             run_one=served.run_cell)

    if triaged or escalated:
        write_csv(result.path / triage.TRIAGE_FILE, triaged)
        write_csv(result.path / triage.ESCALATION_FILE, escalated)
        result.meta["reported_families"] = ["regex"]  # its verdicts are in these files, not in results.csv
    rows = result.rows + triaged + escalated
    correctness = _correctness(result, rows, resolved, checked, table)
    offsets = {v.name: v.pattern.fixed for v in patterns.variants(resolved)}
    found_curves = curves(rows, offsets, correctness["wrong_answers"], fallbacks,
                          correctness["unresolved"], patterns.doubts({p.name: p.attack for p in resolved}),
                          table.automata(engines), measured_as)
    result.meta["regex"].update(censoring=[asdict(c) for c in escalation.censoring()], refined=escalation.refined,
                                correctness=correctness,
                                overrun=summary.overrun(escalation.times, args.budget_ms))
    result.meta["regex"]["cached"] = outcome.cached_entries(cached, seen)
    result.meta["regex"]["time_split"] = clock.meta()
    result.save()
    atomic_write(result.path / "classification.csv", summary.classification_csv(found_curves))
    if store is not None:
        measured = ({r.params["pattern"] for r in escalated} if only is not None
                    else {p.name for p in resolved})
        for p in resolved:
            store.store(p, versions, summary.engine_verdicts(found_curves, p.name, engines), result.run_id,
                        "escalation" if p.name in measured else "triage")
        store.save()
    atomic_write(result.path / "catalogue.toml", resolved_text)

    shown = outcome.Shown(throughput=runs_throughput, budget_ms=args.budget_ms, report=not args.no_report)
    with clock.step("listing and report"):
        outcome.printed(shown, result, resolved, found_curves, engines, correctness, checked.per_pattern,
                        found_scan is not None, cached, seen)
    if found_scan is not None:
        print(clock.text(), file=sys.stderr)
    errors = any(r.status == "error" for r in result.rows)
    return 1 if correctness["unresolved"] or errors else 0
