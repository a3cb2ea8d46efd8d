"""What `ab` compares: two git revisions, each built in its own worktree and build folder, or two
build directories given as they are.

A revision's worktree is build/ab/<commit>/src and its Release build build/ab/<commit>/build:
kept between runs, so a revision is built once (a later `ab` against the same baseline only
checks that nothing is stale), and never touches the checkout's own build/release. A lock per
commit keeps two `ab`s from building the same revision at once.

An `ab` stopped while it checks out or builds (Ctrl-C, SIGTERM) removes the worktree and the build
folder it created there, so no later `ab` builds on half of either; a worktree and build made
earlier stay (ninja rebuilds whatever an interrupted build left stale). A worktree some earlier
`ab` left half checked out (killed by SIGKILL) is not the commit's tree, and is checked out again.

The revisions are this checkout's unless a caller names another repository (bisect --repository);
the worktrees of any repository live under this checkout's build/ab, keyed by commit."""
import fcntl
import shutil
import subprocess
import sys
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from .. import build, children, meta, paths
from ..errors import UsageError

AB_BUILDS = paths.ROOT / "build" / "ab"


@dataclass(frozen=True)
class Side:
    role: str          # "base" or "current"
    given: str         # as the user wrote it
    build: Path        # the build directory with benches/bench_*
    git: dict          # commit, short, dirty, branch (what meta.json records)


def _git(*args: str, cwd: Path = paths.ROOT) -> subprocess.CompletedProcess:
    return children.run(["git", *args], cwd=cwd, text=True, timeout_s=120)


def commit_of(revision: str, repository: Path = paths.ROOT) -> str | None:
    """The commit git resolves `revision` to (a commit, tag or branch), or None."""
    found = _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}", cwd=repository)
    return found.stdout.strip() if found.returncode == 0 else None


def _is_build_dir(path: Path) -> bool:
    return path.is_dir() and any((path / "benches").glob("bench_*"))


def _git_of_build(path: Path) -> dict:
    """The commit a build directory was made from, when its CMake cache names a git checkout."""
    source = build.configured_source(path)
    if source is None or not source.is_dir():
        return {"commit": None, "short": None, "dirty": None, "branch": None, "build_dir": str(path)}
    head = _git("rev-parse", "HEAD", cwd=source)
    commit = head.stdout.strip() if head.returncode == 0 else None
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", cwd=source).stdout.strip())
    return {"commit": commit, "short": commit[:8] if commit else None, "dirty": dirty, "branch": None,
            "build_dir": str(path), "ancestors": meta.ancestry(commit, source)}


@contextmanager
def _locked(commit: str):
    AB_BUILDS.mkdir(parents=True, exist_ok=True)
    with open(AB_BUILDS / f"{commit}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _whole(source: Path, commit: str) -> bool:
    """A worktree of `commit` with every file checked out (git status shows a cut-short checkout's
    missing files)."""
    if not (source / ".git").exists():
        return False
    head = _git("rev-parse", "HEAD", cwd=source)
    status = _git("status", "--porcelain", "--untracked-files=no", cwd=source)
    return head.returncode == status.returncode == 0 and head.stdout.strip() == commit and not status.stdout.strip()


def _remove_worktree(source: Path, repository: Path) -> None:
    _git("worktree", "remove", "--force", str(source), cwd=repository)
    shutil.rmtree(source, ignore_errors=True)
    _git("worktree", "prune", cwd=repository)


@contextmanager
def _removed_unless_done(source: Path, build_dir: Path, made_source: bool, repository: Path):
    """What this `ab` makes inside the block (the worktree when `made_source`, the build folder when
    it was not there) goes when the block is left by an interruption; the build's processes are dead
    by then (build._step)."""
    made_build = not build_dir.exists()
    try:
        yield
    except KeyboardInterrupt:
        if made_build:
            shutil.rmtree(build_dir, ignore_errors=True)
        if made_source:
            _remove_worktree(source, repository)
        with suppress(OSError):  # build/ab/<commit>, when nothing is left in it
            source.parent.rmdir()
        raise


def _built_revision(commit: str, repository: Path) -> Path:
    """build/ab/<commit>/build, made (or brought up to date) from a worktree of that commit."""
    home = AB_BUILDS / commit
    source, build_dir = home / "src", home / "build"
    with _locked(commit):
        made_source = not _whole(source, commit)
        if made_source:
            print(f"stallbench: ab: checking out {commit[:8]} into {source}", file=sys.stderr, flush=True)
            _remove_worktree(source, repository)
            shutil.rmtree(build_dir, ignore_errors=True)  # built from a tree that was not the commit's
        with _removed_unless_done(source, build_dir, made_source, repository):
            if made_source:
                added = _git("worktree", "add", "--detach", "--force", str(source), commit, cwd=repository)
                if added.returncode != 0:
                    _remove_worktree(source, repository)
                    raise UsageError(f"cannot check out {commit[:8]} into {source}: {added.stderr.strip()}")
            if not (source / "CMakePresets.json").exists():
                raise UsageError(f"revision {commit[:8]} has no CMakePresets.json: too old for stallbench ab to build")
            return build.ensure_built("release", source=source, build=build_dir)  # its commands, tests off


def resolve(role: str, given: str, repository: Path = paths.ROOT) -> Side:
    """A build directory as it is, else a git revision of `repository` built in its own worktree
    (exit 2 when it is neither)."""
    path = Path(given)
    if _is_build_dir(path):
        return Side(role, given, path.resolve(), _git_of_build(path.resolve()))
    commit = commit_of(given, repository)
    if commit is None:
        raise UsageError(f"{role.upper()} {given!r} is neither a build directory (with benches/bench_*) nor a "
                         "git revision of this repository (a commit, tag or branch)")
    built = _built_revision(commit, repository)
    return Side(role, given, built, {"commit": commit, "short": commit[:8], "dirty": False, "branch": None,
                                     "revision": given, "ancestors": meta.ancestry(commit, repository)})


@dataclass(frozen=True)
class Commit:
    hash: str
    subject: str


def first_parent_line(good: str, bad: str, repository: Path = paths.ROOT) -> list[Commit]:
    """GOOD and the commits after it on BAD's first-parent line, oldest first, BAD last
    (`git rev-list --first-parent --ancestry-path GOOD..BAD`). Following first parents keeps the
    line a chain, each commit the one before plus one change (a merge: its whole branch), which is
    what a binary search over it needs. Exit 2 when either is not a revision or GOOD is not on the line."""
    commits = {}
    for name, given in (("GOOD", good), ("BAD", bad)):
        commits[name] = commit_of(given, repository)
        if commits[name] is None:
            raise UsageError(f"{name} {given!r} is not a git revision of {repository} (valid: a commit, tag or branch)")
    if commits["GOOD"] == commits["BAD"]:
        raise UsageError(f"GOOD {good} and BAD {bad} are the same commit: nothing to bisect")
    if _git("merge-base", "--is-ancestor", commits["GOOD"], commits["BAD"], cwd=repository).returncode != 0:
        raise UsageError(f"GOOD {good} is not an ancestor of BAD {bad}: give an older commit as GOOD")
    listed = _git("log", "--first-parent", "--ancestry-path", "--reverse", "--format=%H %s",
                  f"{commits['GOOD']}..{commits['BAD']}", cwd=repository)
    line = [Commit(commit, subject) for commit, _, subject in (row.partition(" ") for row in listed.stdout.splitlines())]
    parent = _git("rev-parse", f"{line[0].hash}^", cwd=repository).stdout.strip() if line else None
    if parent != commits["GOOD"]:
        raise UsageError(f"GOOD {good} is not on BAD's first-parent line (it came in through a merge): "
                         f"choose GOOD among `git log --first-parent {bad}`")
    subject = _git("log", "-1", "--format=%s", commits["GOOD"], cwd=repository).stdout.strip()
    return [Commit(commits["GOOD"], subject)] + line
