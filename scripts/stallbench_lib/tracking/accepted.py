"""Changes accepted as intended (`history --accept REV[..REV] --reason TEXT`): a change point whose
commits overlap an accepted range is shown as accepted, with the reason, and no longer counted as a
regression.

An acceptance names its commits as git resolved them when it was made (every commit of
`git rev-list FROM..TO`, or the one commit REV). A change point's commits are those of
`git rev-list BEFORE..AFTER` between the runs on either side of it. Where git does not know them —
a shallow checkout, as CI's are unless they fetch the whole history — the later run's own record
stands in: every run keeps its commit's ancestors in meta.json (git.ancestors, newest first in
topological order, meta.ANCESTRY of them), and the commits listed before BEFORE's are those after
it (all of them on a straight line; on merged branches, those git's order put before it). Only
when neither knows (BEFORE too far back, no record, or both runs at the same commit: the machine
changed, not the code) does the commit of the first run after the change stand for them. The
change is accepted when any of its commits is in an acceptance: its range lies within the
accepted one or overlaps it.

Acceptances live where the history is read from: in the history store (the `acceptances` table),
or, for `history --results DIR`, in DIR/accepted.json, a JSON list kept in the history branch beside
runs/, which `store import DIR` loads into a store (the nightly job does)."""
import json
import re
import subprocess
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from .. import children, paths
from ..atomic import atomic_write
from ..errors import UsageError
from .revisions import commit_of

FILE_NAME = "accepted.json"
GIT_TIMEOUT_S = 30
COMMIT_ID = re.compile(r"[0-9a-f]{4,64}")


@dataclass(frozen=True)
class Acceptance:
    revisions: str           # as given: "a1b2c3d..e5f6a7b" or "e5f6a7b"
    start: str               # the range's excluded start (a full commit), "" for a single revision
    end: str                 # the range's last commit
    commits: tuple[str, ...]  # every commit the range holds, newest first
    reason: str
    accepted_at: str         # UTC, ISO 8601

    @property
    def key(self) -> tuple[str, str]:
        """Accepting the same range again replaces the reason: one acceptance per range."""
        return self.start, self.end

    def to_json(self) -> dict:
        return {**asdict(self), "commits": list(self.commits)}

    @classmethod
    def from_json(cls, item: dict, where: str) -> "Acceptance":
        try:
            return cls(str(item["revisions"]), str(item.get("start") or ""), str(item["end"]),
                       tuple(str(c) for c in item["commits"]), str(item["reason"]), str(item["accepted_at"]))
        except KeyError as e:
            raise UsageError(f"{where}: an acceptance without {e} (each needs revisions, end, commits, reason, "
                             "accepted_at)")
        except TypeError:
            raise UsageError(f"{where}: an acceptance whose commits are not a list of commit ids")


def _git(*args: str) -> str | None:
    """git's output in this checkout, or None when it failed (or there is no git)."""
    try:
        done = children.run(["git", *args], cwd=paths.ROOT, text=True, timeout_s=GIT_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


@lru_cache(maxsize=4096)
def commits_between(before: str, after: str) -> tuple[str, ...] | None:
    """The commits of `git rev-list before..after`, newest first; None when git does not know both
    (or either is not a commit id: a meta.json is data, never an option to git)."""
    if not (COMMIT_ID.fullmatch(before) and COMMIT_ID.fullmatch(after)):
        return None
    listed = _git("rev-list", f"{before}..{after}", "--")
    return None if listed is None else tuple(listed.split())


def resolve(revisions: str, reason: str | None) -> Acceptance:
    """REV or FROM..TO as git resolves it in this checkout; bad input is one line."""
    if not reason or not reason.strip():
        raise UsageError(f"--accept {revisions} needs --reason TEXT: why the change is intended")
    if "..." in revisions or revisions.count("..") > 1 or not revisions.strip(". ") or revisions.startswith("-"):
        raise UsageError(f"--accept {revisions}: valid forms are REV (one commit) or FROM..TO (git's range)")
    start_text, _, end_text = revisions.rpartition("..") if ".." in revisions else ("", "", revisions)
    if ".." in revisions and not (start_text and end_text):
        raise UsageError(f"--accept {revisions}: a range needs both ends, FROM..TO")
    ends = []
    for text in filter(None, (start_text, end_text)):
        commit = commit_of(text)
        if commit is None:
            raise UsageError(f"--accept {revisions}: git cannot resolve {text!r} to a commit in {paths.ROOT}")
        ends.append(commit)
    start, end = (ends[0], ends[1]) if len(ends) == 2 else ("", ends[0])
    commits = commits_between(start, end) if start else (end,)
    if not commits:
        raise UsageError(f"--accept {revisions}: the range holds no commit ({end_text} is not a descendant of "
                         f"{start_text}; git's FROM..TO lists the commits after FROM up to TO)")
    return Acceptance(revisions, start, end, commits, " ".join(reason.split()),
                      datetime.now(timezone.utc).isoformat(timespec="seconds"))


def recorded_between(before: str, ancestors: list[str]) -> tuple[str, ...] | None:
    """The commits after `before` in a later run's recorded ancestry, or None when it does not reach back
    to `before`."""
    return tuple(ancestors[:ancestors.index(before)]) if before in ancestors else None


def between(before: str | None, after: str | None, ancestors: list[str] = ()) -> tuple[str, ...] | None:
    """The commits from a run at `before` to a later one at `after` whose meta.json recorded
    `ancestors`: git's answer, else the record's; None when neither knows (or the commits are equal)."""
    if not (before and after) or before == after:
        return None
    listed = commits_between(before, after)
    return listed if listed is not None else recorded_between(before, list(ancestors))


def changed_commits(before: str | None, after: str | None, ancestors: list[str] = ()) -> frozenset[str]:
    """The commits that can hold a change seen between a run at `before` and the next at `after`."""
    if not after:
        return frozenset()
    return frozenset(between(before, after, ancestors) or (after,))


def matching(acceptances: list[Acceptance], before: str | None, after: str | None,
             ancestors: list[str] = ()) -> Acceptance | None:
    """The newest acceptance that holds any commit of the change, or None."""
    changed = changed_commits(before, after, ancestors)
    for acceptance in sorted(acceptances, key=lambda a: a.accepted_at, reverse=True):
        if changed.intersection(acceptance.commits):
            return acceptance
    return None


def merged(acceptances: list[Acceptance], new: Acceptance) -> list[Acceptance]:
    return [a for a in acceptances if a.key != new.key] + [new]


def read_folder(folder: Path) -> list[Acceptance]:
    """DIR/accepted.json, or none when the folder has no such file."""
    path = Path(folder) / FILE_NAME
    if not path.is_file():
        return []
    try:
        items = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UsageError(f"{path}: not a readable list of acceptances ({e})")
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise UsageError(f"{path}: not a list of acceptances (a JSON list of objects)")
    return [Acceptance.from_json(item, str(path)) for item in items]


def write_folder(folder: Path, acceptances: list[Acceptance]) -> Path:
    """DIR/accepted.json, oldest acceptance first, one key per line: a diff in the history branch
    reads as what was accepted."""
    path = Path(folder) / FILE_NAME
    ordered = sorted(acceptances, key=lambda a: a.accepted_at)
    atomic_write(path, json.dumps([a.to_json() for a in ordered], indent=2) + "\n")
    return path
