"""The history store: every run's meta.json and tidy rows in one database, so `history`, `compare`
and `ab` read a machine's nights with one query instead of walking directories.

SQLite (Python's own sqlite3) is the default, a single file, results/history.sqlite; the same
schema runs on PostgreSQL (`--store postgresql://...`, psycopg2 from Debian's python3-psycopg2)
for a fleet of runners writing to one place. A run is appended in ONE transaction: a process
killed half-way (the CI job's timeout, a power cut) leaves the store as it was, never half a
run. Run directories stay the portable form: `stallbench store import DIR` loads them, and a run
already stored is left alone, so importing twice changes nothing. Waiting on another process's lock
(or on the server) is interruptible (store_waits.py)."""
import json
import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..errors import UsageError, disk_error_line, is_disk_error
from ..documents import json_loads
from ..parameters import Params
from ..tidy import Row
from . import run_identity, store_errors
from .accepted import Acceptance
from .samples import Run, from_parts
from .store_waits import BUSY_SLICE_S, postgres_connect, sqlite_retrying

DEFAULT = paths.RESULTS / "history.sqlite"
ENVIRONMENT = "STALLBENCH_STORE"  # the store every command uses when --store is not given

# Which runs are history: a calibration's injected runs are experiments, and the BASE side of an
# `ab` is the baseline measured again, not a night of its own.
HISTORY_KINDS = ("run", "ab-current")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS runs (
         run_id TEXT PRIMARY KEY, fingerprint TEXT, started_at TEXT, git_commit TEXT,
         complete INTEGER NOT NULL, kind TEXT NOT NULL, meta TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rows (
         run_id TEXT NOT NULL REFERENCES runs(run_id), family TEXT NOT NULL, benchmark TEXT NOT NULL,
         params TEXT NOT NULL, repetition INTEGER NOT NULL, metric TEXT NOT NULL, value DOUBLE PRECISION,
         unit TEXT NOT NULL, status TEXT NOT NULL, detail TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS rows_by_run ON rows (run_id)",
    "CREATE INDEX IF NOT EXISTS runs_by_machine ON runs (fingerprint, started_at)",
    # Changes accepted as intended (accepted.py): commits is the range's commits as a JSON list.
    """CREATE TABLE IF NOT EXISTS acceptances (
         start_commit TEXT NOT NULL, end_commit TEXT NOT NULL, revisions TEXT NOT NULL, commits TEXT NOT NULL,
         reason TEXT NOT NULL, accepted_at TEXT NOT NULL, PRIMARY KEY (start_commit, end_commit))""",
)
SCHEMA_OBJECTS = ("runs", "rows", "rows_by_run", "runs_by_machine", "acceptances")  # what SCHEMA creates
SCHEMA_LOCK = 0x5354414C  # PostgreSQL advisory lock key held while the schema is written ('STAL')
ROW_COLUMNS = "run_id, family, benchmark, params, repetition, metric, value, unit, status, detail"


def kind_of(meta: dict) -> str:
    """A shard is a part of a night, not a night: history reads the group merged (`stallbench merge`)."""
    if meta.get("calibration"):
        return "calibration"
    if meta.get("shard"):
        return "shard"
    side = (meta.get("ab") or {}).get("side")
    return f"ab-{side}" if side else "run"


@dataclass
class StoredRun:
    run_id: str
    fingerprint: str | None
    started_at: str | None
    kind: str
    complete: bool


class Store:
    """One open connection. `location` is a file path (SQLite) or a postgresql:// URL."""

    def __init__(self, location: str | Path):
        self.location = str(location)
        self.postgres = self.location.startswith(("postgresql://", "postgres://"))
        self._connection = _connect_postgres(self.location) if self.postgres else _connect_sqlite(Path(self.location))
        self._write_schema()

    def close(self) -> None:
        self._connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.postgres else text

    def _write_schema(self) -> None:
        with self._transaction() as cursor:
            if self.postgres:  # two runners creating the tables at once: CREATE ... IF NOT EXISTS is not atomic there
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                # A schema already there is not written again: CREATE INDEX IF NOT EXISTS still locks its table
                # (SHARE), and against another runner's open append (rows, then runs) that is a deadlock.
                cursor.execute("SELECT count(to_regclass(name)) FROM unnest(%s) AS name", (list(SCHEMA_OBJECTS),))
                if cursor.fetchone()[0] == len(SCHEMA_OBJECTS):
                    return
            for statement in SCHEMA:
                cursor.execute(statement)

    def _transaction(self):
        return _Transaction(self._connection, self.postgres, shown(self.location))

    def _rows(self, text: str, args=()) -> list[tuple]:
        """The query's rows, read whole; SQLite's wait for a writer's commit is interruptible, and what
        the database says is one line (store_errors.py)."""
        try:
            cursor = self._connection.cursor()
            sqlite_retrying(lambda: cursor.execute(self._sql(text), args))
            found = cursor.fetchall()
            self._connection.commit()
        except _database_errors() as e:
            raise store_errors.translated(e, shown(self.location)) from None
        return found

    def _meta(self, run_id: str, text: str) -> dict:
        try:
            meta = json_loads(text)
        except ValueError as e:
            raise store_errors.damaged_meta(shown(self.location), run_id, e) from None
        if not isinstance(meta, dict):
            raise store_errors.damaged_meta(shown(self.location), run_id, "not a JSON object")
        return meta

    def has(self, run_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)))

    def append(self, meta: dict, rows: list[Row]) -> bool:
        """Stores one run, all of it or nothing; False when this run is already stored. RunIdClash when
        its id is stored for another run (run_identity.py): that one stays, this one is not stored."""
        run_id = meta["run_id"]
        with self._transaction() as cursor:
            cursor.execute(self._sql("SELECT meta FROM runs WHERE run_id = ?"), (run_id,))
            stored = cursor.fetchone()
            if stored is not None:
                cursor.execute(self._sql(f"SELECT {ROW_COLUMNS} FROM rows WHERE run_id = ?"), (run_id,))
                kept = [_row(r) for r in cursor.fetchall()]
                clash = run_identity.difference(self._meta(run_id, stored[0]), kept, meta, rows)
                if clash:
                    raise store_errors.RunIdClash(f"run id {run_id} is stored in {shown(self.location)} for another "
                                                  f"run ({clash}): not stored")
                return False
            cursor.execute(self._sql("INSERT INTO runs (run_id, fingerprint, started_at, git_commit, complete, kind, "
                                     "meta) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                           (run_id, (meta.get("machine") or {}).get("fingerprint"), meta.get("started_at"),
                            (meta.get("git") or {}).get("commit"), int(bool(meta.get("complete"))), kind_of(meta),
                            json.dumps(meta, sort_keys=True)))
            values = [(run_id, r.family, r.benchmark, str(r.params), r.repetition, r.metric, r.value, r.unit, r.status,
                       r.detail) for r in rows]
            if self.postgres:
                from psycopg2.extras import execute_values
                execute_values(cursor, f"INSERT INTO rows ({ROW_COLUMNS}) VALUES %s", values, page_size=2000)
            else:
                cursor.executemany(f"INSERT INTO rows ({ROW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
        return True

    def listing(self, fingerprint: str | None = None) -> list[StoredRun]:
        where, args = ("WHERE fingerprint = ?", (fingerprint,)) if fingerprint else ("", ())
        return [StoredRun(r[0], r[1], r[2], r[3], bool(r[4]))
                for r in self._rows(f"SELECT run_id, fingerprint, started_at, kind, complete FROM runs {where} "
                                    "ORDER BY started_at, run_id", args)]

    def _parts(self, run_ids: list[str]) -> dict[str, tuple[dict, list[Row]]]:
        """run id -> (meta, rows) of the stored ones among `run_ids`."""
        if not run_ids:
            return {}
        marks = ", ".join("?" * len(run_ids))
        metas = {run_id: self._meta(run_id, meta)
                 for run_id, meta in self._rows(f"SELECT run_id, meta FROM runs WHERE run_id IN ({marks})", run_ids)}
        rows: dict[str, list[Row]] = defaultdict(list)
        for r in self._rows(f"SELECT {ROW_COLUMNS} FROM rows WHERE run_id IN ({marks})", run_ids):
            rows[r[0]].append(_row(r))
        return {run_id: (meta, rows[run_id]) for run_id, meta in metas.items()}

    def load(self, run_ids: list[str]) -> list[Run]:
        """The runs with these ids, in the order given (an id not stored is left out)."""
        parts = self._parts(run_ids)
        return [from_parts(Path(f"{self.location}#{i}"), i, *parts[i]) for i in run_ids if i in parts]

    def recent_metas(self, limit: int, started_before: str) -> list[dict]:
        """The meta.json of the `limit` latest complete runs started before `started_before` (ISO
        time), newest first (what --shard's durations come from)."""
        return [self._meta("?", r[0]) for r in self._rows("SELECT meta FROM runs WHERE complete = 1 AND started_at < ? "
                                                          "ORDER BY started_at DESC, run_id LIMIT ?",
                                                          (started_before, limit))]

    def group(self, group_id: str) -> list[tuple[dict, list[Row]]]:
        """(meta, rows) of every stored shard of a group (meta's shard.group), in order of shard index."""
        found = self._rows("SELECT run_id, meta FROM runs WHERE meta LIKE ?", (f"%{json.dumps(group_id)}%",))
        ids = [run_id for run_id, meta in found if (self._meta(run_id, meta).get("shard") or {}).get("group") == group_id]
        return sorted(self._parts(ids).values(), key=lambda part: (part[0]["shard"].get("index", 0), part[0]["run_id"]))

    def history(self, fingerprint: str) -> list[Run]:
        """Every complete night of one machine (plain runs and the CURRENT side of `ab`), oldest first."""
        ids = [r.run_id for r in self.listing(fingerprint) if r.complete and r.kind in HISTORY_KINDS]
        return self.load(ids)

    def accept(self, acceptance: Acceptance) -> None:
        """Stores an acceptance, replacing one of the same range (its reason, its time)."""
        with self._transaction() as cursor:
            cursor.execute(self._sql("DELETE FROM acceptances WHERE start_commit = ? AND end_commit = ?"),
                           acceptance.key)
            cursor.execute(self._sql("INSERT INTO acceptances (start_commit, end_commit, revisions, commits, reason, "
                                     "accepted_at) VALUES (?, ?, ?, ?, ?, ?)"),
                           (acceptance.start, acceptance.end, acceptance.revisions, json.dumps(acceptance.commits),
                            acceptance.reason, acceptance.accepted_at))

    def acceptances(self) -> list[Acceptance]:
        found = self._rows("SELECT revisions, start_commit, end_commit, commits, reason, accepted_at FROM acceptances "
                           "ORDER BY accepted_at, end_commit")
        try:
            return [Acceptance(r[0], r[1], r[2], tuple(json_loads(r[3])), r[4], r[5]) for r in found]
        except (ValueError, TypeError) as e:
            raise store_errors.StoreDamaged(f"--store {shown(self.location)}: a stored acceptance is damaged ({e})") \
                from None


def _row(r: tuple) -> Row:
    return Row(*r[:3], Params.parse(r[3]), *r[4:6], None if r[6] is None else float(r[6]), *r[7:])


class _Transaction:
    """BEGIN ... COMMIT around a block, ROLLBACK when it raises; what the database says on the way is
    one line (store_errors.py)."""

    def __init__(self, connection, postgres: bool, where: str):
        self.connection, self.postgres, self.where = connection, postgres, where

    def __enter__(self):
        try:
            self.cursor = self.connection.cursor()
            if not self.postgres:  # psycopg2 opens a transaction by itself
                sqlite_retrying(lambda: self.cursor.execute("BEGIN IMMEDIATE"))
        except _database_errors() as e:
            raise store_errors.translated(e, self.where) from None
        return self.cursor

    def __exit__(self, failed, error, _trace):
        try:
            if not failed:
                sqlite_retrying(self.connection.commit)
                return
            try:
                self.connection.rollback()
            except _database_errors():
                if not isinstance(error, (KeyboardInterrupt, *_database_errors())):  # psycopg2 closes a connection
                    raise                                                        # cut short by one
        except _database_errors() as e:
            raise store_errors.translated(e, self.where) from None
        if isinstance(error, _database_errors()):
            raise store_errors.translated(error, self.where) from error


def _database_errors() -> tuple:
    import sqlite3

    errors = [sqlite3.Error]
    try:
        import psycopg2
        errors.append(psycopg2.Error)
    except ImportError:
        pass
    return tuple(errors)


def _connect_sqlite(path: Path):
    import sqlite3

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions are ours (BEGIN IMMEDIATE), not the module's guesses.
        # SQLite's own lock wait, which no signal interrupts, is one slice; store_waits repeats it.
        connection = sqlite3.connect(path, timeout=BUSY_SLICE_S, isolation_level=None)
        connection.execute("PRAGMA foreign_keys = ON")
        return connection
    except (OSError, sqlite3.Error) as e:
        raise UsageError(f"--store {path}: cannot open the SQLite store ({e})")


def _connect_postgres(url: str):
    try:
        import psycopg2
    except ImportError:
        raise UsageError(f"--store {url.split('@')[-1]}: PostgreSQL needs psycopg2 (Debian package python3-psycopg2; "
                         "scripts/bootstrap installs it)")
    try:
        return postgres_connect(url)
    except psycopg2.Error as e:
        raise UsageError(f"--store {url.split('@')[-1]}: cannot connect ({str(e).strip().splitlines()[0]})")


def location(option: str | None) -> str:
    """--store's value, else $STALLBENCH_STORE, else results/history.sqlite."""
    return option or os.environ.get(ENVIRONMENT) or str(DEFAULT)


def add_option(parser) -> None:
    parser.add_argument("--store", metavar="PATH|postgresql://...",
                        help=f"the history store: a SQLite file or a PostgreSQL URL (default ${ENVIRONMENT}, else "
                             f"{DEFAULT.relative_to(paths.ROOT)})")


def load_run(given: Path, option: str | None = None) -> Run:
    """A run directory or results.csv when `given` is one, else the stored run with that id."""
    from .samples import load

    if Path(given).exists() or "/" in str(given):
        return load(Path(given))
    where = location(option)
    with Store(where) as store:
        found = store.load([str(given)])
    if not found:
        raise UsageError(f"{given}: not a run directory, a results.csv or a run id in the store {shown(where)}")
    return found[0]


def append_run(run_dir: Path, option: str | None = None) -> str:
    """Stores a finished run directory; returns one line saying what happened (a store that cannot
    be written does not fail the run that was measured: the directory keeps it)."""
    from ..rundir import load as load_run_dir

    run = load_run_dir(run_dir)
    where = location(option)
    try:
        with Store(where) as store:
            added = store.append(run.meta, run.rows)
    except UsageError as e:
        return f"stallbench: not stored: {e}"
    except OSError as e:
        if not is_disk_error(e):
            raise
        return f"stallbench: not stored: {disk_error_line(e)}"
    return f"stored:  {run.run_id} in {shown(where)}" + ("" if added else " (already there)")


def shown(where: str) -> str:
    """A URL without its password."""
    if "://" in where and "@" in where:
        scheme, rest = where.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return where
