"""stallbench run: the main job."""
import os
import random
from dataclasses import dataclass
from pathlib import Path

from .. import (
    build, catalogue, common_options, instructions, node as nodejs, npm_sets, numbers, optional, os_packages, paths,
    served_cells, shard_plan, shards)
from ..browser import setup as browser_setup
from ..errors import UsageError
from ..execute import execute, run_meta
from ..plan import check_sets, filter_regex, make_plan, parse_sets, select
from ..profiles import DEFAULT, PROFILES, Profile
from ..rendering.render import render
from ..tracking import store, stored_durations

NAME = "run"
ORDER = 0
HELP = "build if stale, run a profile's benchmarks, write results/runs/<run-id>/ and its report"


def add_arguments(p):
    p.add_argument("--profile", default=DEFAULT, choices=sorted(PROFILES),
                   help=f"grid and repetitions (default {DEFAULT}); see `stallbench list`")
    p.add_argument("--filter", metavar="REGEX", help="run only benchmarks whose family/name matches")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[],
                   help="replace a parameter's grid, e.g. --set pool=1,4,8 (one process per pool size)")
    p.add_argument("--repetitions", type=numbers.integer_option, metavar="N", help="repetitions per cell (default: the profile's)")
    common_options.out(p, "put the run directory under DIR (and its report in it) instead of results/runs/")
    common_options.no_build(p)
    common_options.no_report(p)
    nodejs.add_option(p, "the Node cells (nightly and full: every pinned line)")
    p.add_argument("--instructions", action="store_true",
                   help="also run CPU-bound benchmarks under callgrind and record their instruction counts "
                        "(`instructions`) beside their repetition times (`wall_ms`); about 50x slower per cell")
    shard_plan.add_options(p, "the plan's cells")
    store.add_option(p)


@dataclass(frozen=True)
class RunOptions:
    """A run as the command line asks for it (run's, and each of calibrate's runs)."""
    profile: Profile
    repetitions: int
    pattern: str | None             # --filter
    sets: dict[str, list[str]]      # --set KEY=V1,V2
    count_instructions: bool = False
    nodes: tuple = ()               # the Node lines (node.choose)
    no_build: bool = False
    shard: shards.Shard | None = None  # --shard K/N: this machine's part of the plan
    group: str | None = None        # --group ID, shared by the shards
    store: str | None = None        # where the shard's durations are read from (--store)
    durations_before: str | None = None  # --durations-before: stored runs older than this (None: today 00:00 UTC)


def provide(pattern: str | None, count_instructions: bool, no_build: bool,
            check_plan=None) -> Path:
    """Installs the OS packages of the families the run selects, builds, and returns the build. The
    families are known from their binaries, which build from core.txt alone: with a --filter or a
    --set the binaries are built and asked first, and `check_plan(families)` refuses a grid they do not
    know before any family's packages are installed; with neither, nothing can be refused and every
    family runs, so every family's list is installed before the (one) build."""
    if no_build:
        return paths.build_dir()
    if pattern is not None:
        filter_regex(pattern)  # before a build that can take minutes
    tools = [os_packages.TRACKING] if count_instructions else []
    if pattern is None and check_plan is None:
        os_packages.ensure(os_packages.family_lists() + tools)
        return _built()
    build_dir = _built()
    families = catalogue.load(build.bench_binaries(build_dir))
    selected = select(families, pattern)
    if check_plan:
        check_plan(families)
    if os_packages.ensure(os_packages.of(families, selected) + tools):
        build_dir = _built()  # CMake sees the new libraries and adds their adapters
    return build_dir


def _built() -> Path:
    """The bench binaries and what their cells start, built if stale: not the other commands' tools."""
    return build.ensure_built(target=build.BENCHES)


def planned_benchmarks(selected: list, cells: list) -> list:
    """The selected benchmarks that have cells in this run: one that needs its own command's input
    (browser/page) has none in `run`, so no notice speaks of it."""
    return [b for b in selected if any(c.benchmark is b for c in cells)]


def perform(options: RunOptions, out: Path, build_dir: Path, extra_meta: dict | None = None):
    """Plans and executes one run into a new directory under `out`; returns its RunDir. Also what
    `calibrate` runs, with `extra_meta` saying which calibration run it is. With instructions to
    count, their stage is chosen here, once: execute runs it over the finished cells."""
    families = catalogue.load(build.bench_binaries(build_dir))
    selected = select(families, options.pattern)

    def plan():
        return make_plan(families, options.profile, options.pattern, options.sets, options.nodes,
                         narrow_with=NARROW_WITH)
    cells = plan()  # first: a grid refused installs nothing
    able = sum(not b.missing for b in selected)
    npm_sets.provide(families, selected)
    if sum(not b.missing for b in selected) < able:
        cells = plan()  # without the benchmarks whose npm packages could not be had, each named
    part = {}
    if options.shard:
        durations = stored_durations.cell_seconds(options.store, options.group, options.durations_before)
        cells, record = shard_plan.split_cells(cells, options.shard, options.group, options.repetitions, durations)
        part = {"shard": record}
    tools = {os_packages.TRACKING} if options.count_instructions else set()
    left_out = (optional.notices(build_dir, {b.family for b in selected} | tools, options.no_build)
                + browser_setup.left_out(families, planned_benchmarks(selected, cells), options.profile.tier,
                                         options.sets))
    settings = {"profile": options.profile.name, "filter": options.pattern, "sets": options.sets,
                "repetitions": options.repetitions, "instructions": options.count_instructions,
                "nodes": [n.meta() for n in options.nodes], **part, **(extra_meta or {})}
    meta = run_meta(families, build_dir, settings)
    counting = None
    if options.count_instructions:
        instructions.declare(meta["metrics"], cells)
        counting = instructions.stage(options.repetitions)
    if options.profile.interleave:  # every round in a process of its own: nights compare independent processes
        seed = random.SystemRandom().randrange(2**31)
        return execute(cells, options.repetitions, out, meta, interleave_seed=seed, notices=left_out,
                       final_pass=counting)
    with served_cells.ServedCells() as served:
        return execute(cells, options.repetitions, out, meta, notices=left_out, final_pass=counting,
                       run_one=served.run_cell)


NARROW_WITH = "--filter or --set {family}.KEY=..."


def sets_check(profile: Profile, pattern: str | None, sets: dict[str, list[str]], nodes: tuple = ()):
    """provide()'s `check_plan` for these --set grids (None: there are none to check)."""
    if not sets:
        return None
    return lambda families: check_sets(families, profile, pattern, sets, nodes, narrow_with=NARROW_WITH)


def check_repetitions(repetitions: int) -> None:
    if not 1 <= repetitions <= 1000:
        raise UsageError(f"--repetitions {repetitions} is out of range: valid values are 1-1000")


def run(args) -> int:
    profile = PROFILES[args.profile]
    repetitions = args.repetitions if args.repetitions is not None else profile.repetitions
    check_repetitions(repetitions)
    shard = shards.parse(args.shard) if args.shard is not None else None
    shard_plan.check_group(shard, args.group)
    options = RunOptions(profile, repetitions, args.filter, parse_sets(args.set), args.instructions,
                         tuple(nodejs.choose(args.node, every_line=profile.tier in ("nightly", "full"))),
                         args.no_build, shard, args.group, args.store, shard_plan.durations_before(args.durations_before))
    build_dir = provide(options.pattern, options.count_instructions, options.no_build,
                        sets_check(profile, options.pattern, options.sets, options.nodes))
    if options.count_instructions:
        instructions.require_valgrind()
    result = perform(options, args.out if args.out else paths.RUNS, build_dir)
    print(f"results: {result.path / 'results.csv'}")
    if args.out is None or args.store or os.environ.get(store.ENVIRONMENT):  # --out alone: leave no trace
        print(store.append_run(result.path, args.store))
    if not args.no_report:
        report = render(result.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
    failed = result.meta["cells"]["failed"] + result.meta.get("instruction_cells", {}).get("failed", 0)
    return 0 if failed == 0 else 1
