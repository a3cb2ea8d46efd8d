"""stallbench shards: how a profile's plan would split for `run --shard K/N`, before running it."""
from ... import build, catalogue, common_options, meta, node as nodejs, numbers, paths, shard_plan, shards
from ...errors import UsageError
from ...plan import make_plan, parse_sets
from ...profiles import DEFAULT, PROFILES
from ...rendering import table
from .. import store, stored_durations

NAME = "shards"
ORDER = 8
HELP = ("how a profile's plan splits for `run --shard K/N`: the expected seconds and cells of every shard for each "
        "N asked for, from the durations the history store holds (else the declared timeouts), nothing run")
MOST_SHARDS = 256


def add_arguments(p):
    p.add_argument("--count", default="1,2,4,8", metavar="N1,N2,...",
                   help="the shard counts to show (default 1,2,4,8)")
    p.add_argument("--profile", default=DEFAULT, choices=sorted(PROFILES), help=f"whose plan (default {DEFAULT})")
    p.add_argument("--filter", metavar="REGEX", help="only benchmarks whose family/name matches")
    p.add_argument("--set", metavar="KEY=V1,V2", action="append", default=[], help="replace a parameter's grid")
    p.add_argument("--repetitions", type=numbers.integer_option, metavar="N",
                   help="repetitions per cell (default: the profile's)")
    p.add_argument("--durations-before", metavar="TIME",
                   help="as run's: durations of stored runs started before TIME (default 00:00 UTC today, what "
                        "run --shard reads without it; `now`: every stored run, how tomorrow's shards will split)")
    common_options.no_build(p)
    nodejs.add_option(p, "the Node cells")
    store.add_option(p)


def _counts(text: str) -> list[int]:
    found = [numbers.integer(part) for part in text.split(",")]
    if not found or any(n is None or not 1 <= n <= MOST_SHARDS for n in found):
        raise UsageError(f"--count {text!r}: expected shard counts 1-{MOST_SHARDS} separated by commas, e.g. 1,2,4,8")
    return found


def run(args) -> int:
    counts = _counts(args.count)
    profile = PROFILES[args.profile]
    repetitions = args.repetitions or profile.repetitions
    if repetitions < 1:
        raise UsageError(f"--repetitions {repetitions}: expected a count of at least 1")
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    families = catalogue.load(build.bench_binaries(build_dir))
    nodes = tuple(nodejs.choose(args.node, every_line=profile.tier in ("nightly", "full")))
    cells = make_plan(families, profile, args.filter, parse_sets(args.set), nodes)
    before = meta.now_iso() if args.durations_before == "now" else shard_plan.durations_before(args.durations_before)
    durations = stored_durations.cell_seconds(args.store, None, before)
    found, _ = shard_plan.units(cells, lambda c: c.key, shard_plan.cell_seconds(durations, repetitions))
    total = sum(u.seconds for u in found)
    rows = []
    for n in counts:
        split = shards.assign(found, n)
        for k, (load, units) in enumerate(zip(shards.loads(split), split), 1):
            rows.append([n, f"{k}/{n}", len(units), f"{load:,.0f}", f"{load / (total / n):.3f}"])
    print(f"{len(cells)} cells of the {profile.name} profile, {repetitions} repetitions each; expected seconds "
          f"{'from the history store (median per repetition over the latest stored runs)' if durations else 'from the declared timeouts (the store has no durations)'}, "
          "rounded to powers of two: an upper bound when they are timeouts")
    print(table.text(["N", "shard", table.number("cells"), table.number("expected s"),
                      table.number("of the even share")], rows), end="")
    return 0
