"""A run directory: results/runs/<run-id>/{results.csv, meta.json, raw/}.

meta.json is written first with complete=false and rewritten with complete=true only when the
run has finished; each cell's rows are appended to results.csv in one synced write of whole lines
(atomic.append_synced; rewriting the whole file after every cell cost a default run a minute), so a
run stopped by Ctrl-C, kill or a crash of the orchestrator keeps every finished cell and says it is
incomplete.
When the disk refuses a write (full, read-only), a space reserve made at the start is released so
that the finished rows and meta.json's `stopped` (why) still fit.
Earlier runs are never touched."""
import atexit
import contextlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import children, output_pipes
from .atomic import append_synced, atomic_write
from .errors import UsageError
from .tidy import Row, csv_lines, read_csv, write_csv
from .documents import json_loads

RESERVE_BYTES = 8 << 20  # results.csv of a few thousand cells, rewritten beside the old one, and meta.json


@dataclass(eq=False)  # a run is itself (hashable by identity), whatever its fields
class RunDir:
    path: Path
    meta: dict
    rows: list[Row] = field(default_factory=list)
    # How many of `rows` results.csv holds (-1: not known): add() appends only after exactly those.
    _rows_in_file: int = field(default=-1, init=False, repr=False)

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def raw(self) -> Path:
        return self.path / "raw"

    @staticmethod
    def check_parent(parent: Path) -> None:
        """check_out(parent): for a command that measures first and writes after (the doctor, an --app
        sweep), checked before it starts."""
        check_out(parent)

    @classmethod
    def create(cls, parent: Path, run_id: str, meta: dict) -> "RunDir":
        """A new run directory under `parent`, with meta.json (complete=false) and the space reserve.
        Nothing is left behind when it cannot be made (a full or read-only disk)."""
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"{parent}: not a directory (--out takes the directory to put runs in)")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except FileNotFoundError as e:  # a path no directory can be made in (/proc/x); a full disk is not this
            raise UsageError(f"--out {parent}: runs cannot be written there ({e.strerror})") from None
        path, n = parent / run_id, 1
        while True:
            try:
                path.mkdir()
                break
            except FileExistsError:  # several runs in the same second of the same commit
                n += 1
                path = parent / f"{run_id}.{n}"
        try:
            (path / "raw").mkdir()
            run = cls(path, {**meta, "run_id": path.name, "complete": False})
            run.save()
            run._reserve_space()
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)
            raise
        return run

    @property
    def reserve(self) -> Path:
        return self.path / ".space-reserve"

    def _reserve_space(self) -> None:
        """Space held back so that, when the disk fills during the run, the finished rows and the
        reason can still be written: released by release_space(), then they are. It goes when the run
        has ended (save), whoever wrote the run, and with the watchdog if we are killed."""
        children.remove_if_killed(self.reserve)
        _reserved.add(self)
        try:
            with open(self.reserve, "wb") as f:
                os.posix_fallocate(f.fileno(), 0, RESERVE_BYTES)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(self.reserve)) from None

    def release_space(self) -> None:
        with contextlib.suppress(OSError):  # a read-only disk keeps it; nothing else can be written either
            self.reserve.unlink(missing_ok=True)
        children.keep(self.reserve)
        _reserved.discard(self)

    def ended(self) -> bool:
        """Whether the run is over: finished, interrupted, or stopped by the disk."""
        return bool(self.meta.get("complete") or self.meta.get("interrupted") or self.meta.get("stopped"))

    def add(self, rows: list[Row]) -> None:
        """Adds rows to results.csv: appended when the file holds exactly the rows before them,
        else (the first rows, rows changed in memory, an append the disk refused) written whole."""
        results = self.path / "results.csv"
        appending = self._rows_in_file == len(self.rows) and results.exists()
        self.rows += rows
        self._rows_in_file = -1  # unknown until the write below is done
        if appending:
            append_synced(results, csv_lines(rows))
        else:
            write_csv(results, self.rows)
        self._rows_in_file = len(self.rows)

    def save(self) -> None:
        if output_pipes.lost():  # the run went on without printing: its reader will not have seen the end
            self.meta["output_lost"] = {name: f"the reader of {name} closed the pipe at {when}; the run went on "
                                              "without printing" for name, when in output_pipes.lost().items()}
        atomic_write(self.path / "meta.json", json.dumps(self.meta, indent=2, sort_keys=True) + "\n")
        if self.ended():
            self.release_space()


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long to look up (ENAMETOOLONG) is not there
        return False


def check_out(path: Path) -> None:
    """UsageError (one line) unless folders can be made at `path` (an --out): not under a regular
    file, no name longer than the filesystem takes, a place this user may write. Checked by making and
    removing a folder in the nearest one that exists: nothing is left behind."""
    if _exists(path) and not path.is_dir():
        raise UsageError(f"{path}: not a directory (--out takes the directory to put runs in)")
    existing, missing = path, []
    while not _exists(existing) and existing != existing.parent:
        missing.append(existing.name)
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"--out {path}: {existing} is a file, not a directory: nothing can be made under it")
    longest = max((len(os.fsencode(name)) for name in missing), default=0)
    limit = os.pathconf(existing, "PC_NAME_MAX")
    if longest > limit:
        raise UsageError(f"--out {path}: a name of {longest} bytes, and this filesystem takes at most {limit}")
    try:
        made = tempfile.mkdtemp(prefix=".stallbench-check-", dir=existing)
    except OSError as e:
        raise UsageError(f"--out {path}: runs cannot be written there ({e.strerror})") from None
    os.rmdir(made)


_reserved: set[RunDir] = set()  # runs whose reserve is still held: released at exit whatever ended the command


@atexit.register
def _release_all() -> None:
    for run in list(_reserved):
        run.release_space()


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


class DamagedRun(UsageError):
    """A run directory whose files cannot be read as a run: the message names the file and what is wrong."""


def read_meta(path: Path) -> dict:
    """The run's meta.json ({} when there is none); DamagedRun when it is not a JSON object."""
    meta_path = Path(path) / "meta.json"
    if not meta_path.exists():
        return {}
    try:
        meta = json_loads(meta_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DamagedRun(f"{meta_path}: damaged run: not valid JSON ({e})") from None
    except OSError as e:
        raise DamagedRun(f"{meta_path}: cannot be read ({e.strerror})") from None
    if not isinstance(meta, dict):
        raise DamagedRun(f"{meta_path}: damaged run: expected a JSON object, found {type(meta).__name__}")
    return meta


def read_rows(csv_path: Path) -> list[Row]:
    """The rows of a results.csv; DamagedRun naming the line when it is cut short or malformed."""
    try:
        return read_csv(csv_path)
    except ValueError as e:  # UnicodeDecodeError included
        raise DamagedRun(f"{csv_path}: damaged run: {e}") from None
    except OSError as e:
        raise DamagedRun(f"{csv_path}: cannot be read ({e.strerror})") from None


def unfinished(meta: dict) -> str | None:
    """Why a run did not finish (interrupted, a full disk, killed), or None when it did."""
    if meta.get("complete") is True:
        return None
    if meta.get("incomplete_because"):  # a merged group with a shard missing or unfinished (group_merge.py)
        return f"incomplete: {meta['incomplete_because']}"
    if meta.get("stopped"):
        return f"incomplete: stopped by {meta['stopped']}"
    if meta.get("interrupted"):
        return f"incomplete: interrupted by {meta['interrupted']}"
    return "incomplete: it never finished (killed, or still running)"


def load(path: Path) -> RunDir:
    """A run directory, or a results.csv inside one; DamagedRun when its files cannot be read."""
    path = Path(path)
    if path.name == "results.csv":
        path = path.parent
    meta = read_meta(path)
    csv_path = path / "results.csv"
    rows = read_rows(csv_path) if csv_path.exists() else []
    return RunDir(path, meta, rows)
