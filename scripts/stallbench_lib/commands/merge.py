"""stallbench merge [DIR...] [--group ID] [--store URL] [--out DIR]: a group's shards as one run
(group_merge.py)."""
import os
from pathlib import Path

from .. import group_merge, paths
from ..errors import UsageError
from ..report.render import render
from ..tracking import store

NAME = "merge"
ORDER = 13
HELP = ("join the shards of a group (`run --shard K/N --group ID` on N machines) into one run directory that "
        "report, compare, history and export read as one run; a shard missing or unfinished marks it incomplete, "
        "naming the shard")


def add_arguments(p):
    p.add_argument("dirs", nargs="*", type=Path, metavar="DIR",
                   help="the shards' run directories, or folders of them (any depth); none: read the group from --store")
    p.add_argument("--group", metavar="ID", help="the group to merge (needed when DIRs hold several, or with no DIR)")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="put the merged run directory (named by the group) under DIR instead of results/runs/")
    p.add_argument("--no-report", action="store_true", help="skip rendering the merged run's report")
    store.add_option(p)


def _parts(dirs: list[Path], group: str | None, store_option: str | None) -> tuple[str, list[group_merge.Part]]:
    if dirs:
        return group_merge.one_group(group_merge.parts_in(dirs), group)
    if group is None:
        raise UsageError("merge needs the shards' DIRs, or --group ID to read them from the store")
    where = store.location(store_option)
    with store.Store(where) as db:
        stored = db.group(group)
    parts = [group_merge.Part(meta, rows, f"{store.shown(where)}#{meta['run_id']}") for meta, rows in stored
             if not (meta.get("ab") or {}).get("side")]
    if not parts:
        raise UsageError(f"merge: no shard of group {group!r} in the store {store.shown(where)}")
    return group, parts


def run(args) -> int:
    group, parts = _parts(args.dirs, args.group, args.store)
    count = group_merge.check(parts)
    meta = group_merge.merged_meta(group, parts, count)
    merged = group_merge.write(parts, meta, args.out or paths.RUNS, group)
    print(f"merged:  {len(parts)} of {count} shards of group {group} into {merged.path / 'results.csv'}")
    if args.out is None or args.store or os.environ.get(store.ENVIRONMENT):
        print(store.append_run(merged.path, args.store))
    if not args.no_report:
        report = render(merged.path)
        print(f"report:  {report / 'index.html'}  ({report / 'report.md'})")
    if not meta["complete"]:
        print(f"stallbench: group {group} is incomplete: {meta['incomplete_because']}")
        return 1
    return 0 if meta["cells"].get("failed", 0) == 0 else 1
