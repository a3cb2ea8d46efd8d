"""`scripts/stallbench SUBCOMMAND ...`. Each subcommand is a module with NAME, HELP,
add_arguments(parser) and run(args) -> exit code, in a `commands` folder: the core's (commands/),
the tracking product's (tracking/commands/) or a family's (families/<family>/commands/), found at
start-up: adding one edits nothing here."""
import argparse
import os
import importlib
import pkgutil
import sys
import tempfile
import traceback
from pathlib import Path

from . import commands, families, interrupts, output_pipes, tracking
from .rundir import check_out
from .errors import (DISK_EXIT, INTERNAL_EXIT, UsageError, disk_error_line, is_disk_error, is_path_error,
                     path_error_line)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, as for every other bad input
        print(f"stallbench: {message} (see scripts/stallbench --help)", file=sys.stderr)
        raise SystemExit(2)


def _undecodable(argv: list[str]) -> str | None:
    """Arguments are UTF-8 text (they end up in meta.json, CSV cells and bench command lines); Python
    hands undecodable bytes over as lone surrogates, which would fail far from here."""
    for position, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as e:
            raw = arg.encode("utf-8", "surrogateescape")
            shown = raw.decode("utf-8", "backslashreplace")
            return (f"argument {position} ({shown}): byte 0x{raw[len(arg[:e.start].encode()):][0]:02x} at character "
                    f"{e.start + 1} is not UTF-8 (valid: UTF-8 text)")
    return None


COMMAND_PACKAGES = [commands.__name__, f"{tracking.__name__}.commands"]  # and each family's (families.py)


def command_modules() -> dict[str, str]:
    """Command name (as a module: `_` for `-`) -> the dotted name of its module: the core's
    commands, the tracking product's and every family's."""
    found = {}
    for package in COMMAND_PACKAGES + families.command_packages():
        for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
            if module.name in found:
                raise RuntimeError(f"two commands named {module.name}: {found[module.name]} and {package}")
            found[module.name] = f"{package}.{module.name}"
    return found


def _commands(argv: list[str]):
    """The command modules: only the one named by the first argument when there is one (some import
    numpy or matplotlib, over a second on a busy machine), else all of them (for --help)."""
    modules = command_modules()
    named = argv[0].replace("-", "_") if argv else ""
    names = [named] if named in modules else list(modules)
    found = [importlib.import_module(modules[name]) for name in sorted(names)]
    return sorted(found, key=lambda m: getattr(m, "ORDER", 100))  # stable: by name where ORDER ties


class _Version(argparse.Action):
    """--version: asks the build, so it is computed when given, not when the parser is made."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the version, commit and the build's libraries")

    def __call__(self, parser, namespace, values, option_string=None):
        from . import about

        try:
            print(about.text())
        except UsageError as e:
            print(f"stallbench: {e}", file=sys.stderr)
            parser.exit(2)
        parser.exit(0)


def make_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command's parser, with the subcommand `argv` names (all of them when it names none)."""
    parser = _Parser(prog="stallbench", description="Reproduce, measure and plot event-loop stalls.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in _commands(argv or []):
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def share_dependency_folder() -> None:
    """Every child learns where this checkout's dependencies (npm sets, Node lines, headers) are from
    the command that installed them: a bench binary or a build made from another source folder (ab's
    and bisect's worktrees under build/ab/) would otherwise look beside its own sources, where
    nothing is installed."""
    from .node import deps_dir

    os.environ["STALLBENCH_DEPS"] = str(deps_dir().resolve())


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    parser = make_parser(given)
    undecodable = _undecodable(given)
    if undecodable:
        print(f"stallbench: {undecodable}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    share_dependency_folder()
    try:
        if isinstance(getattr(args, "out", None), Path):  # every --out is a folder: one that cannot be, before any work
            check_out(args.out)
        with output_pipes.surviving_readers(), interrupts.raised():
            return args.handler(args)
    except UsageError as e:
        print(f"stallbench: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:  # what it started is dead and what it half made is gone by now
        print(f"\nstallbench: interrupted ({interrupts.signal_name(stop)})", file=sys.stderr)
        return interrupts.exit_code(stop)
    except BrokenPipeError:  # `stallbench list | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        if is_disk_error(e):
            print(f"stallbench: {disk_error_line(e)}", file=sys.stderr)
            return DISK_EXIT
        if is_path_error(e):
            print(f"stallbench: {path_error_line(e)}", file=sys.stderr)
            return 2
        return _internal_error(e)
    except RecursionError as e:  # a reader documents.py does not cover yet: still one line
        print(f"stallbench: an input is nested too deeply to be read ({e})", file=sys.stderr)
        return 2
    except Exception as e:
        return _internal_error(e)


def _internal_error(e: BaseException) -> int:
    """A failure no check foresaw is a bug of ours: one line, the traceback kept in a file for the
    report, exit INTERNAL_EXIT (never a traceback in a user's terminal or CI log)."""
    detail = "".join(traceback.format_exception(e))
    try:
        fd, kept = tempfile.mkstemp(prefix="stallbench-error-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(detail)
        where = f"the traceback is in {kept}"
    except OSError:
        where = "the traceback could not be saved"
    print(f"stallbench: internal error: {type(e).__name__}: {str(e)[:300]} ({where}; please report it)",
          file=sys.stderr)
    return INTERNAL_EXIT
