"""stallbench store import DIR... | store list: the history store (tracking/store.py)."""
import sys
from pathlib import Path

from ... import rundir
from ...errors import UsageError
from ...rendering import table
from .. import accepted, store
from ..store_errors import RunIdClash

NAME = "store"
ORDER = 13
HELP = ("the history store (SQLite by default, or PostgreSQL): `store import DIR...` loads run directories "
        "(any depth; a run already stored is left alone) and each DIR's accepted.json (changes accepted with "
        "`history --accept`), `store list` shows what it holds")


def add_arguments(p):
    p.add_argument("action", choices=("import", "list"), help="import run directories, or list the stored runs")
    p.add_argument("dirs", nargs="*", type=Path, metavar="DIR",
                   help="for import: run directories or folders of them (with accepted.json, if any, at the top)")
    p.add_argument("--fingerprint", metavar="FP", help="for list: only this machine's runs")
    store.add_option(p)


def _run_dirs(roots: list[Path]) -> list[Path]:
    found = []
    for root in roots:
        if not root.is_dir():
            raise UsageError(f"store import {root}: no such directory")
        found += sorted(p.parent for p in root.rglob("meta.json") if (p.parent / "results.csv").is_file())
    return found


def run(args) -> int:
    where = store.location(args.store)
    if args.action == "list":
        if args.dirs:
            raise UsageError("store list takes no directories (did you mean store import?)")
        with store.Store(where) as db:
            runs = db.listing(args.fingerprint)
        print(table.markdown(["run", "machine", "started", "kind", "complete"],
                             [[r.run_id, r.fingerprint, r.started_at, r.kind, "yes" if r.complete else "no"] for r in runs]),
              end="")
        print(f"store: {len(runs)} runs in {store.shown(where)}")
        return 0
    if not args.dirs:
        raise UsageError("store import needs at least one DIR (a run directory, or a folder of them such as results/)")
    dirs = _run_dirs(args.dirs)
    found = sorted((a for root in args.dirs for a in accepted.read_folder(root)), key=lambda a: a.accepted_at)
    acceptances = list({a.key: a for a in found}.values())  # the newest of each range
    added = kept = refused = 0
    with store.Store(where) as db:
        newest = {a.key: a.accepted_at for a in db.acceptances()}
        taken = [a for a in acceptances if a.accepted_at > newest.get(a.key, "")]
        for acceptance in taken:  # a newer acceptance of the same range, already stored, stays
            db.accept(acceptance)
        for path in dirs:
            try:
                run_dir = rundir.load(path)
            except (ValueError, KeyError, rundir.DamagedRun) as e:
                print(f"stallbench: {path}: not a readable run ({e}), passed over")
                continue
            if not run_dir.meta.get("run_id"):
                print(f"stallbench: {path}: meta.json has no run_id, passed over")
                continue
            try:
                if db.append(run_dir.meta, run_dir.rows):
                    added += 1
                else:
                    kept += 1
            except RunIdClash as e:  # the stored run stays; this one is named, and the import fails
                print(f"stallbench: {path}: {e}", file=sys.stderr)
                refused += 1
    taken_text = f", {len(taken)} accepted changes from {accepted.FILE_NAME}" if taken else ""
    refused_text = f", {refused} refused (their ids name other stored runs)" if refused else ""
    print(f"store: {added} runs added, {kept} already there{refused_text}{taken_text}, in {store.shown(where)}")
    return 2 if refused else 0
