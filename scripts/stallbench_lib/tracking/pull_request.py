"""The pull-request job's steps (scripts/pull-request runs this module; the workflow
.github/workflows/pull-request.yml calls that script; tests/python/test_pull_request.py runs it).

  measure RUN_ID BASE HEAD [--build DIR] [ab options...]
      the families the diff from BASE's merge base with HEAD to HEAD can affect (affected.py, read
      from HEAD's own Release build, the one ab then measures), then `stallbench ab MERGE_BASE HEAD
      --instructions --instructions-gate --filter THEIR_BENCHMARKS` into $STALLBENCH_PRS/RUN_ID/ab, or nothing when no
      benchmark is affected. Exit: ab's code (0 passed or nothing was measured; 1 regressed; 4
      inconclusive; 2 when a step could not do its work). The folder is the job's own: one that
      exists is refused.
  comment RUN_ID [--no-post]
      renders the comment (comment.md) from that folder, appends it to $GITHUB_STEP_SUMMARY, and
      posts it on the pull request of $GITHUB_EVENT_PATH as a sticky comment — unless the pull
      request comes from a fork (its token cannot write), --no-post, or the measure step did not
      finish (a cancelled run never replaces a finished comment; nor does an older run a newer one's).
  affected BASE HEAD | --paths FILE [--build DIR] [--json]
      the families a diff (or a list of paths, '-' for stdin) can affect, each path with the rule
      that decided it; --build: the Release build whose graph and declarations answer (default the
      checkout's)."""
import argparse
import json
import os
import sys
import time
from pathlib import Path

from .. import children, interrupts, paths
from ..atomic import atomic_write
from ..errors import UsageError
from . import pr_comment, revisions, sticky_comment
from .affected import affected
from ..documents import json_loads

JOBS_ENV = "STALLBENCH_PRS"
GIT_TIMEOUT_S = 120


def _jobs() -> Path:
    return Path(os.environ.get(JOBS_ENV) or paths.RESULTS / "pull-requests")


def _job(run_id: str) -> Path:
    if not run_id or not all(c.isalnum() or c in "._-" for c in run_id):
        raise UsageError(f"RUN_ID {run_id!r}: use letters, digits, . _ -")
    return _jobs() / run_id


def _git(*args: str) -> str:
    done = children.run(["git", *args], cwd=paths.ROOT, text=True, timeout_s=GIT_TIMEOUT_S)
    if done.returncode != 0:
        raise UsageError(f"git {' '.join(args)}: {done.stderr.strip() or f'exit {done.returncode}'}")
    return done.stdout


def _commit(revision: str) -> str:
    commit = revisions.commit_of(revision)
    if commit is None:
        raise UsageError(f"{revision!r} is not a revision of this repository (a commit, tag or branch)")
    return commit


def changed_paths(base: str, head: str) -> list[str]:
    return [line for line in _git("diff", "--name-only", base, head).splitlines() if line]


def _step(job: Path, name: str, code: int) -> None:
    with open(job / "steps.txt", "a") as f:
        f.write(f"{name} {code}\n")
    print(f"pull-request: step {name} exited {code}", file=sys.stderr, flush=True)


def _steps(job: Path) -> dict[str, int]:
    listed = job / "steps.txt"
    return {} if not listed.exists() else {k: int(v) for k, v in (l.split() for l in listed.read_text().splitlines())}


def measure(run_id: str, base: str, head: str, build: Path | None, ab_args: list[str]) -> int:
    job = _job(run_id)
    if job.exists():
        raise UsageError(f"{job} already exists: a job writes only its own folder (is RUN_ID this job's id?)")
    head_commit = _commit(head)
    base_commit = _git("merge-base", _commit(base), head_commit).strip()
    job.mkdir(parents=True)
    changed = changed_paths(base_commit, head_commit)
    # HEAD's own build, the one ab then measures it with; made only when a path needs the graph. Its
    # time is before ab's clock starts (ab finds the build made), so the comment adds it.
    mapping = time.monotonic()
    scope = affected(changed, build or (lambda: revisions.resolve("current", head_commit).build))
    atomic_write(job / "affected.json", json.dumps({"base": base_commit, "head": head_commit, **scope.to_json(),
                                                    "minutes": round((time.monotonic() - mapping) / 60, 3)},
                                                   indent=2) + "\n")
    _step(job, "affected", 0)
    if not scope.families:
        print("pull-request: no benchmark is affected by this diff: nothing to measure", file=sys.stderr)
        return 0
    print(f"pull-request: measuring {'every family' if scope.everything else ', '.join(scope.families)}",
          file=sys.stderr, flush=True)
    wanted = [] if scope.ab_filter() is None else ["--filter", scope.ab_filter()]
    argv = [str(paths.ROOT / "scripts" / "stallbench"), "ab", base_commit, head_commit, "--instructions",
            "--instructions-gate", *wanted,
            "--out", str(job / "ab"), *ab_args]
    proc = children.start(argv, memory_bytes=0)  # bounded by its --budget and the job's limit, not here
    try:
        code = proc.wait()
    except BaseException:  # interrupted: ab and what it started go with the job
        children.kill(proc)
        raise
    children.forget(proc)
    _step(job, "ab", code)
    if code == 0 and not (job / "ab" / "ab.json").exists():
        print("pull-request: ab wrote no ab.json: nothing was judged", file=sys.stderr)
        return 2
    return code


def _event() -> dict:
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        return json_loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise UsageError(f"GITHUB_EVENT_PATH {path}: not a readable event ({e})") from None


def _links() -> pr_comment.Links:
    server, repository, run = (os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    return pr_comment.Links(f"{server}/{repository}/actions/runs/{run}" if server and repository and run else None,
                            os.environ.get("STALLBENCH_ARTIFACT_URL") or None)


def comment(run_id: str, post: bool) -> int:
    job = _job(run_id)
    if not (job / "affected.json").exists():
        raise UsageError(f"{job}/affected.json is missing: the measure step did not get as far as the diff")
    steps = _steps(job)
    text = pr_comment.render(job, _links(), steps.get("ab"), run_id)
    scope = json_loads((job / "affected.json").read_text())
    # ab ran to its end, whatever it found: its exit code recorded, or its ab.json written
    finished = not scope["families"] or "ab" in steps or (job / "ab" / "ab.json").exists()
    atomic_write(job / "comment.md", text)
    if summary := os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(summary, "a") as f:
            f.write(text)
    pull = _event().get("pull_request")
    repository = os.environ.get("GITHUB_REPOSITORY", "")
    if not post:
        print(f"pull-request: {job / 'comment.md'} (not posted: --no-post)")
    elif not finished:
        print(f"pull-request: {job / 'comment.md'} to the job summary only: the measure step did not finish "
              "(cancelled, stopped or superseded), so the comment on the pull request keeps the last finished run's")
    elif not pull:
        print(f"pull-request: {job / 'comment.md'} (not posted: no pull request in GITHUB_EVENT_PATH)")
    elif pull["head"]["repo"]["full_name"] != repository:
        print(f"pull-request: {job / 'comment.md'} to the job summary only: the pull request comes from the fork "
              f"{pull['head']['repo']['full_name']}, whose token cannot write to {repository}")
    else:
        print(f"pull-request: {sticky_comment.post(repository, pull['number'], text)}")
    return 0


def show(base: str | None, head: str | None, listed: str | None, build: Path | None, as_json: bool) -> int:
    if listed:
        stream = sys.stdin if listed == "-" else open(listed)
        changed = [line.strip() for line in stream if line.strip()]
    elif base and head:
        changed = changed_paths(_commit(base), _commit(head))
    else:
        raise UsageError("affected: give BASE and HEAD, or --paths FILE")
    scope = affected(changed, build or paths.build_dir())
    if as_json:
        print(json.dumps(scope.to_json(), indent=2))
        return 0
    for path, why in scope.why.items():
        print(f"{path}: {', '.join(scope.reached[path]) or 'none'} ({why})", file=sys.stderr)
    print("\n".join(scope.families))
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"pull-request: {message} (see scripts/pull-request --help)", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="scripts/pull-request", description=__doc__.split("\n\n")[0], allow_abbrev=False,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True, parser_class=_Parser)
    m = sub.add_parser("measure", help="the families the diff affects, then ab of them; exit: ab's",
                       allow_abbrev=False)  # every other option is ab's, passed on whole
    m.add_argument("run_id", metavar="RUN_ID")
    m.add_argument("base", metavar="BASE")
    m.add_argument("head", metavar="HEAD")
    m.add_argument("--build", type=Path, metavar="DIR", help="the build whose graph answers (default: HEAD's, as ab builds it)")
    c = sub.add_parser("comment", help="render the comment; post it unless the pull request comes from a fork")
    c.add_argument("run_id", metavar="RUN_ID")
    c.add_argument("--no-post", action="store_true", help="render and write the job summary only")
    a = sub.add_parser("affected", help="the families a diff can affect, and why")
    a.add_argument("base", metavar="BASE", nargs="?")
    a.add_argument("head", metavar="HEAD", nargs="?")
    a.add_argument("--paths", metavar="FILE", help="changed paths, one a line ('-': stdin), instead of BASE HEAD")
    a.add_argument("--build", type=Path, metavar="DIR", help="the Release build that answers (default the checkout's)")
    a.add_argument("--json", action="store_true", help="print affected.json's form")
    return parser


def main(argv: list[str] | None = None) -> int:
    args, rest = _parser().parse_known_args(argv)
    if rest and args.step != "measure":
        _parser().error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        with interrupts.raised():
            if args.step == "measure":
                return measure(args.run_id, args.base, args.head, args.build, rest)
            if args.step == "comment":
                return comment(args.run_id, not args.no_post)
            return show(args.base, args.head, args.paths, args.build, args.json)
    except UsageError as e:
        print(f"pull-request: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print(f"\npull-request: interrupted ({interrupts.signal_name(stop)})", file=sys.stderr)
        return interrupts.exit_code(stop)


if __name__ == "__main__":
    raise SystemExit(main())
