"""stallbench list: what can be run, with every parameter's grid per profile; --json gives the
declarations themselves, as the bench binaries wrote them (contract/protocol.schema.json's `list`)."""
import dataclasses
import json

from .. import build, catalogue, common_options, contract, node as nodejs, optional, paths
from ..profiles import PROFILES

NAME = "list"
ORDER = 1
HELP = "list families, benchmarks, parameters (with their grids per profile) and metrics"


def add_arguments(p):
    common_options.no_build(p)
    p.add_argument("--json", action="store_true",
                   help="print the declarations as JSON (protocol-versioned; see docs/contract.md), for scripts")


def _values(values: list[str]) -> str:
    return ",".join(values) or "--node"  # node_line's grids are empty: the lines the run chose


def _parameter_lines(b) -> list[str]:
    """A benchmark's parameters: each grid per profile, or, for one a command measures, what that
    command writes (it has no grid: no cell of its own)."""
    if b.measured_by:
        return [f"    measured by `stallbench {b.measured_by}` (no cells of its own in run); parameters (valid values):",
                *(f"      {p.name:<10} {p.valid_text()}  {p.doc}" for p in b.params)]
    lines = ["    parameters (smoke | default | nightly | full grid; valid values):"]
    for p in b.params:
        where = " [one process per value" + (f", exported as {p.env}]" if p.env else "]") if p.per_process else ""
        where += " [work: scaled by calibrate --inject]" if p.work else ""
        lines.append(f"      {p.name:<10} {_values(p.smoke)} | {_values(p.values)} | {_values(p.grid('nightly'))} | "
                     f"{_values(p.full)}; {p.valid_text()}{where}  {p.doc}")
    return lines


def run(args) -> int:
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    families = catalogue.load(build.bench_binaries(build_dir))
    if args.json:
        profiles = {p.name: {k: v for k, v in dataclasses.asdict(p).items() if k != "name"} for p in PROFILES.values()}
        print(json.dumps({"protocol": contract.PROTOCOL, "profiles": profiles,
                          "families": [f.declared for f in families]}, indent=2))
        return 0
    optional.say(build_dir, no_build=args.no_build)
    print("profiles: " + "; ".join(f"{p.name} ({p.doc})" for p in PROFILES.values()))
    print(f"\nnode lines (--node LINES or $STALLBENCH_NODE; nightly and full run every pinned line; pinned in "
          f"{nodejs.LINES_FILE.relative_to(paths.ROOT)}, installed into {nodejs.deps_dir()}):")
    for line, version, where in nodejs.status():
        print(f"  {line:<17} {version:<9} {where}")
    for f in families:
        print(f"\nfamily {f.name}: {f.doc}")
        for i in f.inputs:
            print(f"  input `{i.name}` (given by the family's own command): {i.doc}"
                  + (f"; default {i.fallback}" if i.fallback else ""))
        for b in f.benchmarks:
            print(f"  {b.full_name}: {b.doc}")
            if b.missing:
                print(f"    not runnable here: {b.missing}")
            print(*_parameter_lines(b), sep="\n")
            print("    metrics:")
            for m in b.metrics:
                flags = f"{m.unit}, {m.better} is better" + ("" if m.tracked else ", not tracked")
                flags += f", minimum effect {m.min_effect_pct:g}%" if m.min_effect_pct else ""
                print(f"      {m.name:<18} ({flags})  {m.doc}")
    return 0
