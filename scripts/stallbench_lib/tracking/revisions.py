"""What `ab` compares: two git revisions, each built in its own worktree and build folder, or two
build directories given as they are.

A revision's worktree is build/ab/<commit>/src and its Release build build/ab/<commit>/build:
kept between runs, so a revision is built once (a later `ab` against the same baseline only
checks that nothing is stale), and never touches the checkout's own build/release. A lock per
commit keeps two `ab`s from building the same revision at once."""
import fcntl
import re
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import build, paths
from ..errors import UsageError

AB_BUILDS = paths.ROOT / "build" / "ab"


@dataclass(frozen=True)
class Side:
    role: str          # "base" or "current"
    given: str         # as the user wrote it
    build: Path        # the build directory with benches/bench_*
    git: dict          # commit, short, dirty, branch (what meta.json records)


def _git(*args: str, cwd: Path = paths.ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def _commit_of(revision: str) -> str | None:
    found = _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    return found.stdout.strip() if found.returncode == 0 else None


def _is_build_dir(path: Path) -> bool:
    return path.is_dir() and any((path / "benches").glob("bench_*"))


def _git_of_build(path: Path) -> dict:
    """The commit a build directory was made from, when its CMake cache names a git checkout."""
    cache = path / "CMakeCache.txt"
    source = None
    if cache.exists():
        match = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache.read_text(), re.M)
        source = Path(match.group(1)) if match else None
    if source is None or not source.is_dir():
        return {"commit": None, "short": None, "dirty": None, "branch": None, "build_dir": str(path)}
    head = _git("rev-parse", "HEAD", cwd=source)
    commit = head.stdout.strip() if head.returncode == 0 else None
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", cwd=source).stdout.strip())
    return {"commit": commit, "short": commit[:8] if commit else None, "dirty": dirty, "branch": None,
            "build_dir": str(path)}


@contextmanager
def _locked(commit: str):
    AB_BUILDS.mkdir(parents=True, exist_ok=True)
    with open(AB_BUILDS / f"{commit}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _built_revision(commit: str) -> Path:
    """build/ab/<commit>/build, made (or brought up to date) from a worktree of that commit."""
    home = AB_BUILDS / commit
    source, build_dir = home / "src", home / "build"
    with _locked(commit):
        if not (source / ".git").exists():
            print(f"stallbench: ab: checking out {commit[:8]} into {source}", file=sys.stderr, flush=True)
            _git("worktree", "prune")
            added = _git("worktree", "add", "--detach", "--force", str(source), commit)
            if added.returncode != 0:
                raise UsageError(f"cannot check out {commit[:8]} into {source}: {added.stderr.strip()}")
        if not (source / "CMakePresets.json").exists():
            raise UsageError(f"revision {commit[:8]} has no CMakePresets.json: too old for stallbench ab to build")
        return build.ensure_built("release", source=source, build=build_dir, target=None)  # any revision's targets


def resolve(role: str, given: str) -> Side:
    """A build directory as it is, else a git revision built in its own worktree (exit 2 when it is
    neither)."""
    path = Path(given)
    if _is_build_dir(path):
        return Side(role, given, path.resolve(), _git_of_build(path.resolve()))
    commit = _commit_of(given)
    if commit is None:
        raise UsageError(f"{role.upper()} {given!r} is neither a build directory (with benches/bench_*) nor a "
                         "git revision of this repository (a commit, tag or branch)")
    built = _built_revision(commit)
    return Side(role, given, built, {"commit": commit, "short": commit[:8], "dirty": False, "branch": None,
                                     "revision": given})
