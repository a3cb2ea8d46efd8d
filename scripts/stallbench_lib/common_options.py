"""The options many commands take, declared once here so that each has one meaning, one type and
one default wherever it appears (tests/python/test_common_options.py lists every command's against
these): where a command writes (--out), whether it builds first (--no-build), whether it renders a
report (--no-report). A command's own options stay in its module; the Node lines (node.add_option),
the history store (store.add_option), shards (shard_plan.add_options) and the statistics of a verdict
(tracking/statistics_options.py: --alpha, --min-effect) have theirs beside what they configure."""
import argparse
from pathlib import Path

RUN_DIRECTORY = "put the run directory under DIR instead of results/runs/"
DECLARED = "declared_in_common_options"  # set on each action made here, for the test


def mark(action: argparse.Action) -> argparse.Action:
    """Marks an option declared once for many commands (here, or in a group beside what it
    configures, such as tracking/statistics_options.py)."""
    setattr(action, DECLARED, True)
    return action


def out(parser, where: str = RUN_DIRECTORY) -> None:
    """--out DIR: the folder this command writes under; `where` says what goes there and the default."""
    mark(parser.add_argument("--out", metavar="DIR", type=Path, help=where))


def no_build(parser) -> None:
    """--no-build: run what is built; without it, the binaries the command needs are built first."""
    mark(parser.add_argument("--no-build", action="store_true",
                              help="use the existing build; fail if what this command runs is not built"))


def no_report(parser) -> None:
    mark(parser.add_argument("--no-report", action="store_true", help="skip rendering the report"))
