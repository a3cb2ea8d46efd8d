"""What `stallbench regex` prints once a study has run: the risky-first listing of a --scan (the
regexes its cache answered included), the matrix, the throughput table, the findings (one line per
pattern x engine that answered wrongly, the rewrites' counterexamples), the budget check and where it
wrote."""
import sys
from dataclasses import dataclass
from pathlib import Path

from ...rendering.render import render
from . import agreement, summary
from .patterns import Pattern, variants

DISAGREEMENTS = "disagreements.csv"  # every input on which engines disagreed, in the run directory


@dataclass(frozen=True)
class Shown:
    """What the command line asked to see: the throughput table, the budget checked, the report."""
    throughput: bool
    budget_ms: int
    report: bool


def cached_entries(cached: dict[str, list[dict]], seen: list[Pattern]) -> dict:
    """The regexes the cache answered, with their verdicts: meta.json's `regex.cached`."""
    return {p.name: {"source": p.source, "regex": p.regex, "flags": p.flags, "verdicts": cached[p.name]} for p in seen}


def described(resolved: list[Pattern], cached: dict[str, dict]) -> dict:
    """variant -> where it was found and where its attack (or its cached verdicts: `cached`, as
    cached_entries gives them) came from."""
    found = {p.name: f"{p.source}  /{p.regex}/{p.flags}  [{p.attack}]" for p in resolved}
    runs = lambda entry: ", ".join(sorted({v["run_id"] for v in entry["verdicts"]}))
    found.update({name: f"{e['source']}  /{e['regex']}/{e['flags']}  [cached: measured by run {runs(e)}]"
                  for name, e in cached.items()})
    return found


def findings(correctness: dict, samples: dict, run_dir: Path) -> None:
    """On stderr: one line per pattern x engine that answered wrongly (and per undecided
    disagreement), every input being in the run's disagreements.csv; the rewrites' counterexamples."""
    for name, found in samples.items():
        if found["status"] != "ok":
            print(f"sample check of {name} {found['status']}", file=sys.stderr)
    for line in agreement.finding_lines(correctness["wrong_answers"], correctness["unresolved"]):
        print(line, file=sys.stderr)
    if correctness["disagreements"]:
        print(f"{correctness['disagreements']:,} inputs on which engines disagreed: {run_dir / DISAGREEMENTS}",
              file=sys.stderr)
    for c in correctness["counterexamples"]:
        print(f"safe rewrite of {c['pattern']} differs on {c['input']}: original {c['original']}, "
              f"rewrite {c['safe']} ({', '.join(c['engines'])})", file=sys.stderr)


def printed(shown: Shown, result, resolved, found_curves, engines, correctness, samples, scanned: bool,
            cached: dict[str, list[dict]], seen: list[Pattern]) -> None:
    """What the run found, on stdout (findings on stderr), and where it wrote."""
    names = [v.name for v in variants(resolved)]
    if scanned:
        own = {v.name: v.pattern.reference for v in variants(resolved)}
        own.update({p.name: p.reference for p in seen})
        print(summary.risk_text(summary.risk_rows(found_curves, names, engines, cached, own),
                                described(resolved, cached_entries(cached, seen))))
    print(summary.matrix_text(found_curves, names, engines))
    if shown.throughput:
        print(summary.throughput_text(result.rows, engines))
    findings(correctness, samples, result.path)
    over = result.meta["regex"]["overrun"]
    if over["max_ratio"] is not None:
        print(f"budget {shown.budget_ms} ms: slowest match cell took {over['max_ratio']:.2f}x the budget "
              f"({over['worst_cell']}, {over['worst_status']}); {over['cells_over_1_2']} of {over['cells']} over 1.2x")
    load = ", ".join(f"{x:.1f}" for x in result.meta["machine"]["load_average_start"])
    print(f"load average at the start: {load} on {result.meta['machine']['cores']} cores: times are noisy when "
          "the machine is shared; compare ratios within this run")
    print(f"results: {result.path / 'results.csv'}")
    print(f"classification: {result.path / 'classification.csv'}")
    print(f"catalogue: {result.path / 'catalogue.toml'}  (every attack filled in: edit it and run again with --patterns)")
    if shown.report:
        report = render(result.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
