"""stallbench merge [DIR...] [--group ID] [--store URL] [--out DIR]: a group's shards as one run
(group_merge.py)."""
import os
from pathlib import Path

from ... import common_options, families, group_merge, paths
from ...errors import UsageError
from ...rendering.render import render
from .. import ab_group, comparison, statistics_options, store

NAME = "merge"
ORDER = 13
HELP = ("join the shards of a group (`run --shard K/N --group ID` on N machines) into one run directory that "
        "report, compare, history and export read as one run; a shard missing or unfinished marks it incomplete, "
        "naming the shard. For `regex --scan --shard` shards (their directories): one risky-first listing, one "
        "catalogue.toml and classification.csv, as the unsplit scan writes. For `ab --shard` shards: both sides merged and judged together (one correction over "
        "every metric of the group), ab.md/.csv/.json, and ab's exit code (2 when a shard is missing)")


def add_arguments(p):
    p.add_argument("dirs", nargs="*", type=Path, metavar="DIR",
                   help="the shards' run directories, or folders of them (any depth); none: read the group from --store")
    p.add_argument("--group", metavar="ID", help="the group to merge (needed when DIRs hold several, or with no DIR)")
    common_options.out(p, "put the merged run directory (named by the group) under DIR instead of results/runs/ "
                        "(an ab group: its folder, default results/ab/ID/)")
    common_options.no_report(p)
    store.add_option(p)


SIDES = (None, "base", "current")  # a run's shards; an ab's BASE and CURRENT sides


def _found(dirs: list[Path], group: str | None, store_option: str | None) -> tuple[str, dict]:
    """The group's shards by side (None: a run's)."""
    if dirs:
        found = group_merge.parts_in(dirs, SIDES)
    elif group is None:
        raise UsageError("merge needs the shards' DIRs, or --group ID to read them from the store")
    else:
        where = store.location(store_option)
        with store.Store(where) as db:
            found = [group_merge.Part(meta, rows, f"{store.shown(where)}#{meta['run_id']}")
                     for meta, rows in db.group(group)]
        if not found:
            raise UsageError(f"merge: no shard of group {group!r} in the store {store.shown(where)}")
    group, parts = group_merge.one_group(found, group)
    by_side = {side: [p for p in parts if (p.meta.get("ab") or {}).get("side") == side] for side in SIDES}
    if by_side[None] and (by_side["base"] or by_side["current"]):
        raise UsageError(f"merge: group {group} holds both run shards and ab shards; a group is one or the other")
    return group, by_side


def _judge_ab(group: str, by_side: dict, out: Path | None) -> int:
    limits = ab_group.limits_of(by_side["base"] + by_side["current"])
    thresholds = statistics_options.thresholds(limits.get("min_effect", []),
                                               limits.get("alpha", comparison.DEFAULT_ALPHA))
    folder = out or paths.RESULTS / "ab" / group
    code, text = ab_group.judge(group, {side: by_side[side] for side in ("base", "current")}, thresholds, folder)
    print(text)
    print(f"ab: {folder / 'ab.md'} (runs: {folder / 'base'}, {folder / 'current'}); exit {code}")
    return code


def run(args) -> int:
    group, by_side = _found(args.dirs, args.group, args.store)
    if not by_side[None]:
        code = _judge_ab(group, by_side, args.out)
        if args.out is None or args.store or os.environ.get(store.ENVIRONMENT):
            for side in ("base", "current"):
                folder = (args.out or paths.RESULTS / "ab" / group) / side / f"{group}-{side}"
                print(store.append_run(folder, args.store))
        return code
    parts = by_side[None]
    count = group_merge.check(parts)
    meta = group_merge.merged_meta(group, parts, count)
    family = next((hook for hook in families.hooks("merge") if hook.claims(parts)), None)
    if family:  # a family's own group (regex --scan shards: one listing, one catalogue)
        merged, printed = family.write(parts, meta, args.out or paths.RUNS, group)
        print(printed)
    else:
        merged = group_merge.write(parts, meta, args.out or paths.RUNS, group)
    print(f"merged:  {len(parts)} of {count} shards of group {group} into {merged.path / 'results.csv'}")
    stored = family.STORED if family else True
    if stored and (args.out is None or args.store or os.environ.get(store.ENVIRONMENT)):
        print(store.append_run(merged.path, args.store))
    if not args.no_report:
        report = render(merged.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
    if not meta["complete"]:
        print(f"stallbench: group {group} is incomplete: {meta['incomplete_because']}")
        return 1
    return 0 if meta["cells"].get("failed", 0) == 0 else 1
