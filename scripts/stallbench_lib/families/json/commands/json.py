"""stallbench json --input FILE: parse your own JSON file with every parser, and with Node's
JSON.parse on each chosen Node line, first parse and steady state apart, with the same stall and
/health measurements as family `json`, into a run directory and its report.

The file is handed to bench_json as its input `input`; bench_json refuses a file it
cannot load at all (missing, over simdjson's 4 GiB limit, larger than the memory available)
before any cell exists, and that one line becomes ours (exit 2, nothing written). Any file that
can be loaded is the object of study: a malformed, truncated, empty, non-UTF-8 or too deeply nested
one is parsed, and each parser's refusal, with its message and byte offset, is a `rejected` row."""
import stat
from pathlib import Path

from .... import build, catalogue, common_options, node as nodejs, numbers, optional, os_packages, paths
from ....errors import UsageError, file_kind
from ....execute import execute, run_meta
from ....plan import make_plan, parse_sets
from ....profiles import PROFILES
from ....rendering.render import render

NAME = "json"
ORDER = 10
HELP = "parse your own JSON file (--input FILE) with every parser and JSON.parse, measuring stalls and /health"
BENCHMARKS = r"^json/input(-node)?$"


def add_arguments(p):
    p.add_argument("--input", required=True, type=Path, metavar="FILE", help="the JSON document to parse")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[],
                   help="choose parsers, number modes, modes or the steady-state time (default: every parser, "
                        "inline, 300 ms), e.g. --set parser=simdjson-dom,rapidjson --set mode=inline,pool,worker "
                        "--set numbers=exact --set min_time_ms=1000")
    p.add_argument("--repetitions", type=numbers.integer_option, default=3, metavar="N", help="repetitions per cell (default 3)")
    common_options.out(p)
    common_options.no_build(p)
    common_options.no_report(p)
    nodejs.add_option(p, "JSON.parse of the file")


def _check_input(path: Path) -> None:
    """UsageError unless `path` is a regular file: the bench reads the document whole, once per
    process, so a FIFO, a device or a directory cannot be measured."""
    try:
        mode = path.stat().st_mode
    except OSError as e:
        raise UsageError(f"--input {path}: {e.strerror} (give the path of a JSON document)") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"--input {path}: {file_kind(mode)}, not a regular file (give the path of a JSON document "
                         "saved in a file)")


def run(args) -> int:
    if not 1 <= args.repetitions <= 1000:
        raise UsageError(f"--repetitions {args.repetitions} is out of range: valid values are 1-1000")
    _check_input(args.input)
    sets = parse_sets(args.set)
    nodes = tuple(nodejs.choose(args.node))
    if not args.no_build:
        os_packages.ensure(["json"])  # the parsers: this family's package list
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    binary = build.bench_binaries(build_dir).get("json")  # describe this family only, not every one built
    if binary is None:
        raise UsageError("bench_json is not built (its family is missing from the build)")
    families = [catalogue.describe(binary)]
    cells = make_plan(families, PROFILES["quick"], BENCHMARKS, sets, nodes, narrow_with="--set json/input.KEY=...",
                      inputs={"input": str(args.input.resolve())})
    settings = {"profile": "json --input", "input": str(args.input.resolve()), "sets": sets,
                "repetitions": args.repetitions, "nodes": [n.meta() for n in nodes]}
    out = args.out if args.out else paths.RUNS
    result = execute(cells, args.repetitions, out, run_meta(families, build_dir, settings),
                     notices=optional.notices(build_dir, {families[0].name}, args.no_build))
    print(f"results: {result.path / 'results.csv'}")
    if not args.no_report:
        report = render(result.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
    return 0 if result.meta["cells"]["failed"] == 0 else 1
