"""stallbench versus-recheck RUN_DIR: a `regex --scan` run beside recheck alone on the same regexes
(families/regex/versus_recheck.py): verdict agreement on each regex's own engine and time per regex."""
from pathlib import Path

from ....atomic import atomic_write
from .. import versus_recheck
from ..engines import Engines
from ....rundir import read_meta

NAME = "versus-recheck"
ORDER = 3
HELP = ("a `regex --scan` run directory beside recheck alone on the same (JavaScript) regexes: verdicts "
        f"agreeing on each regex's own engine, time per regex; writes {versus_recheck.FILE} into the run directory")


def add_arguments(p):
    p.add_argument("run", type=Path, metavar="RUN_DIR", help="the run directory a `regex --scan` wrote")


def run(args) -> int:
    reference = Engines.from_meta(read_meta(args.run)).for_language("JavaScript")
    compared = versus_recheck.compare(args.run, reference)
    atomic_write(args.run / versus_recheck.FILE, compared.csv_text())
    print(compared.text())
    print(f"per regex: {args.run / versus_recheck.FILE}")
    return 0
