"""A run directory: results/runs/<run-id>/{results.csv, meta.json, raw/}.

meta.json is written first with complete=false and rewritten with complete=true only when the
run has finished; results.csv is rewritten (atomically) after every cell, so a run stopped by
Ctrl-C, kill or a crash of the orchestrator keeps every finished cell and says it is incomplete.
Earlier runs are never touched."""
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .atomic import atomic_write
from .tidy import Row, read_csv, write_csv


@dataclass
class RunDir:
    path: Path
    meta: dict
    rows: list[Row] = field(default_factory=list)

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def raw(self) -> Path:
        return self.path / "raw"

    @classmethod
    def create(cls, parent: Path, run_id: str, meta: dict) -> "RunDir":
        parent.mkdir(parents=True, exist_ok=True)
        path, n = parent / run_id, 1
        while path.exists():  # two runs in the same second of the same commit
            n += 1
            path = parent / f"{run_id}.{n}"
        (path / "raw").mkdir(parents=True)
        run = cls(path, {**meta, "run_id": path.name, "complete": False})
        run.save()
        return run

    def add(self, rows: list[Row]) -> None:
        self.rows += rows
        write_csv(self.path / "results.csv", self.rows)

    def save(self) -> None:
        atomic_write(self.path / "meta.json", json.dumps(self.meta, indent=2, sort_keys=True) + "\n")


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


def load(path: Path) -> RunDir:
    """A run directory, or a results.csv inside one."""
    path = Path(path)
    if path.name == "results.csv":
        path = path.parent
    meta_path = path / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    csv_path = path / "results.csv"
    rows = read_csv(csv_path) if csv_path.exists() else []
    return RunDir(path, meta, rows)
