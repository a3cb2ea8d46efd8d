"""scripts/pull-request, the pull-request job: the path → family map on synthetic diffs (read from the
real build's graph and declarations), the sticky comment against a fake GitHub API on 127.0.0.1 (one
comment created, then updated in place; a fork's pull request gets the job summary only), and the
workflow that wires the script and its exit code."""
import json
import os
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import BUILD, DATA, ROOT
from stallbench_lib import build, catalogue

FIXTURE = DATA / "pull_request"
REPOSITORY = "owner/stallbench"
MARKER = "<!-- stallbench-pr"


def pull_request(*args, env=None, stdin=None):
    full = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), **(env or {})}
    return subprocess.run([str(ROOT / "scripts" / "pull-request"), *args], capture_output=True, text=True,
                          timeout=300, env=full, input=stdin)


# --- the path → family map ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def families():
    return catalogue.load(build.bench_binaries(BUILD))


def affected(*paths, build_dir=BUILD):
    result = pull_request("affected", "--paths", "-", "--json", "--build", str(build_dir), stdin="\n".join(paths))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _module(family):
    return family.name.replace("-", "_")


def test_a_file_a_family_declares_reaches_that_family_only(families):
    source = build.configured_source(BUILD)
    declared = [(f.name, str(Path(i.fallback).relative_to(source))) for f in families for i in f.inputs
                if i.fallback.startswith(str(source) + "/") and Path(i.fallback).is_file()]
    assert declared, "no family declares an input file of the source tree (the regex catalogue did)"
    for name, path in declared:
        found = affected(path)
        assert found["families"] == [name] and not found["everything"], found
        assert found["filter"] and found["filter"].startswith("^(")


def _each_path(*paths):
    """What the map decides for each of `paths` (one run of the script for all of them): path -> the
    families it reaches, and whether it reaches every family."""
    found = affected(*paths)
    every = sorted(found["families"]) if found["everything"] else None
    return {p: (d["families"], d["families"] == every) for p, d in found["paths"].items()}


def test_a_file_in_a_familys_workload_folder_reaches_that_family(families):
    wanted = {str(Path("workloads") / _module(f) / "new-data-file.txt"): f.name for f in families
              if (ROOT / "workloads" / _module(f)).is_dir()}
    assert wanted
    for path, (reached, everything) in _each_path(*wanted).items():
        assert wanted[path] in reached and not everything, (path, reached)


def test_a_file_in_a_familys_python_folder_reaches_that_family_only(families):
    wanted = {}
    for f in families:
        folder = Path("scripts/stallbench_lib/families") / _module(f)
        if (ROOT / folder).is_dir():
            for path in (folder / "section.py", folder / "commands" / "new_command.py", folder / "node" / "new.js"):
                wanted[str(path)] = f.name
    assert len(set(wanted.values())) >= 8
    for path, (reached, _) in _each_path(*wanted).items():
        assert reached == [wanted[path]], path


def test_the_harness_or_the_build_reaches_every_family(families):
    every = sorted(f.name for f in families)
    for path in ("benches/harness/harness.cc", "CMakeLists.txt", "cmake/optional.cmake", "scripts/stallbench_lib/plan.py",
                 "scripts/stallbench_lib/families/__init__.py", "scripts/stallbench_lib/rendering/stall_plots.py"):
        found = affected(path, "docs/tracking.md")
        assert found["everything"] and found["families"] == every and found["filter"] is None, (path, found)


def test_documentation_and_tests_reach_nothing_and_need_no_build(tmp_path):
    found = affected("docs/tracking.md", "README.md", "tests/python/test_ab.py", ".github/workflows/ci.yml",
                     build_dir=tmp_path / "no-build-here")
    assert found["families"] == [] and not found["everything"] and found["filter"] is None
    assert all(p["families"] == [] for p in found["paths"].values())


def test_nothing_changed_measures_nothing_and_writes_the_scope(tmp_path):
    result = pull_request("measure", "job-1", "HEAD", "HEAD", env={"STALLBENCH_PRS": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    scope = json.loads((tmp_path / "job-1" / "affected.json").read_text())
    assert scope["families"] == [] and scope["base"] == scope["head"] and scope["minutes"] >= 0
    assert not (tmp_path / "job-1" / "ab").exists()
    again = pull_request("measure", "job-1", "HEAD", "HEAD", env={"STALLBENCH_PRS": str(tmp_path)})
    assert again.returncode == 2 and "already exists" in again.stderr


def test_a_revision_that_is_not_one_is_one_line(tmp_path):
    result = pull_request("measure", "job-2", "no-such-revision", "HEAD", env={"STALLBENCH_PRS": str(tmp_path)})
    assert result.returncode == 2 and "not a revision" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- the sticky comment ---------------------------------------------------------------------------

class FakeGitHub:
    """Issue comments of one repository, as the REST API serves them, with every request recorded."""

    def __init__(self, refuse: set[str] = frozenset()):
        self.requests, self.comments, self.refuse = [], [], refuse
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, code, body):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                fake.requests.append((self.command, self.path, body, self.headers.get("Authorization")))
                if self.command in fake.refuse:
                    return self._answer(403, {"message": "Resource not accessible by integration"})
                path = self.path.split("?")[0]
                prefix = f"/repos/{REPOSITORY}/issues/"
                if self.command == "GET" and path.endswith("/comments"):
                    page = int(dict(p.split("=") for p in self.path.split("?")[1].split("&"))["page"])
                    return self._answer(200, fake.comments[(page - 1) * 100:page * 100])
                if self.command == "POST" and path.startswith(prefix) and path.endswith("/comments"):
                    comment = {"id": 9000 + len(fake.comments), "body": body["body"]}
                    fake.comments.append(comment)
                    return self._answer(201, comment)
                if self.command == "PATCH" and path.startswith(prefix + "comments/"):
                    comment = next(c for c in fake.comments if c["id"] == int(path.rsplit("/", 1)[1]))
                    comment["body"] = body["body"]
                    return self._answer(200, comment)
                return self._answer(404, {"message": "Not Found"})

            do_GET = do_POST = do_PATCH = _handle

            def log_message(self, *_):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def writes(self):
        return [r for r in self.requests if r[0] != "GET"]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def github():
    fake = FakeGitHub()
    # Other people's comments come first, over more than one page: ours is found by its marker.
    fake.comments += [{"id": i, "body": f"a reviewer's comment {i}"} for i in range(1, 131)]
    yield fake
    fake.close()


def _job(jobs: Path, name: str, families=("tiny",), ab=True, ab_exit=None, map_minutes=0.0) -> str:
    job = jobs / name
    job.mkdir(parents=True)
    (job / "affected.json").write_text(json.dumps({
        "base": "1" * 40, "head": "2" * 40, "families": list(families), "everything": False, "filter": None,
        "paths": {"workloads/tiny/data.txt": {"families": list(families), "why": "in workloads/tiny/"}},
        "minutes": map_minutes}))
    if ab:
        shutil.copytree(FIXTURE / "ab", job / "ab")
    if ab_exit is not None:
        (job / "steps.txt").write_text(f"affected 0\nab {ab_exit}\n")
    return name


def _env(tmp_path, github, head_repo=REPOSITORY, number=42):
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": number, "head": {"repo": {"full_name": head_repo}}}}))
    return {"STALLBENCH_PRS": str(tmp_path / "jobs"), "GITHUB_API_URL": github.url, "GITHUB_TOKEN": "t0ken",
            "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_EVENT_PATH": str(event), "GITHUB_SERVER_URL": "https://github.test",
            "GITHUB_RUN_ID": "777", "STALLBENCH_ARTIFACT_URL": "https://github.test/artifacts/5",
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}


def test_the_first_push_creates_the_comment_and_the_next_updates_it(tmp_path, github):
    env = _env(tmp_path, github)
    first = pull_request("comment", _job(tmp_path / "jobs", "run-1"), env=env)
    assert first.returncode == 0, first.stderr
    (method, path, body, auth), = github.writes()
    assert (method, path, auth) == ("POST", f"/repos/{REPOSITORY}/issues/42/comments", "Bearer t0ken")
    ours = github.comments[-1]
    assert MARKER in ours["body"] and ours["body"] == (tmp_path / "jobs" / "run-1" / "comment.md").read_text()

    second = pull_request("comment", _job(tmp_path / "jobs", "run-2", ab=False, ab_exit=2), env=env)
    assert second.returncode == 0, second.stderr
    methods = [r[0] for r in github.writes()]
    assert methods == ["POST", "PATCH"]  # never a second comment
    assert github.writes()[1][1] == f"/repos/{REPOSITORY}/issues/comments/{ours['id']}"
    assert sum(MARKER in c["body"] for c in github.comments) == 1 and len(github.comments) == 131
    assert "could not judge" in github.comments[-1]["body"] and "exit 2" in github.comments[-1]["body"]


def test_the_comment_shows_the_geomeans_the_changed_metrics_and_the_links(tmp_path, github):
    result = pull_request("comment", _job(tmp_path / "jobs", "run-1"), env=_env(tmp_path, github))
    assert result.returncode == 0, result.stderr
    text = github.comments[-1]["body"]
    assert text.splitlines()[0] == "## stallbench: regressed — 1 gated metric"  # the verdict comes first
    means = [line for line in text.splitlines() if line.startswith("| instruction counts") or line.startswith("| wall time")]
    assert len(means) == 2 and "gates the counted cells" in means[0] and "-5.00%" in means[0]  # the gate's, first
    assert "1.071" in means[1] and "+7.12%" in means[1] and "[+3.50%, +10.90%]" in means[1]
    assert "builds 9.1, callgrind 1.5, rounds 0.9 of the 8-minute budget" in text
    changed = [line for line in text.splitlines() if line.startswith("| ") and "tiny/sum" in line]
    assert [("regressed" in line, "improved" in line) for line in changed] == [(True, False), (False, True)]
    assert "[+21.20%, +28.90%]" in changed[0]  # the interval from ab.csv
    assert "Instruction counts: 1 cell," in text
    assert "noisy" not in " ".join(changed) and "unchanged" not in " ".join(changed)
    assert "https://github.test/owner/stallbench/actions/runs/777" in text and "https://github.test/artifacts/5" in text
    assert (tmp_path / "summary.md").read_text() == text  # the job summary has the same


def test_the_build_the_map_made_before_ab_is_in_the_comments_time(tmp_path, github):
    """The map of changed paths builds HEAD before ab's clock starts: a reviewer sees that time too."""
    result = pull_request("comment", _job(tmp_path / "jobs", "run-1", map_minutes=12.34), env=_env(tmp_path, github))
    assert result.returncode == 0, result.stderr
    text = github.comments[-1]["body"]
    assert "mapping the changed paths to families took 12.3 minutes (HEAD's build included" in text
    assert text.index("took 12.3 minutes") < text.index("builds 9.1, callgrind 1.5")
    quick = pull_request("comment", _job(tmp_path / "jobs", "run-2"), env=_env(tmp_path, github))
    assert quick.returncode == 0 and "mapping the changed paths" not in github.comments[-1]["body"]


def test_an_inconclusive_ab_says_so_in_the_first_line(tmp_path, github):
    name = _job(tmp_path / "jobs", "run-1")
    summary = tmp_path / "jobs" / name / "ab" / "ab.json"
    found = json.loads(summary.read_text())
    found.update(exit=4, verdict="inconclusive", gating=[], inconclusive={
        "metrics": 2, "gated": 3, "worst": "tiny/sum/n=2000/sum_ms", "detectable_pct": 19.0, "min_effect_pct": 5.0,
        "rounds": 9, "alpha": 0.05})
    summary.write_text(json.dumps(found))
    assert pull_request("comment", name, env=_env(tmp_path, github)).returncode == 0
    first = github.comments[-1]["body"].splitlines()[0]
    assert first.startswith("## stallbench: inconclusive:") and "+19.0%" in first and "minimum effect 5%" in first


def test_an_older_run_never_overwrites_a_newer_runs_comment(tmp_path, github):
    env = _env(tmp_path, github)
    assert pull_request("comment", _job(tmp_path / "jobs", "900-1", ab_exit=1), env=env).returncode == 0
    assert "run=900-1" in github.comments[-1]["body"]
    late = pull_request("comment", _job(tmp_path / "jobs", "899-2", ab=False, ab_exit=2), env=env)  # superseded
    assert late.returncode == 0 and "newer than this run" in late.stdout
    assert "run=900-1" in github.comments[-1]["body"] and [r[0] for r in github.writes()] == ["POST"]
    assert pull_request("comment", _job(tmp_path / "jobs", "901-1", ab_exit=0), env=env).returncode == 0
    assert "run=901-1" in github.comments[-1]["body"] and [r[0] for r in github.writes()] == ["POST", "PATCH"]


def test_a_measure_that_did_not_finish_leaves_the_comment_as_it_was(tmp_path, github):
    name = _job(tmp_path / "jobs", "run-1", ab=False)  # families to measure, but no `ab` step recorded
    (tmp_path / "jobs" / name / "steps.txt").write_text("affected 0\n")
    result = pull_request("comment", name, env=_env(tmp_path, github))
    assert result.returncode == 0 and "did not finish" in result.stdout
    assert github.requests == [] and (tmp_path / "summary.md").exists()


def test_an_ab_json_without_geomean_renders_without_it(tmp_path, github):
    name = _job(tmp_path / "jobs", "run-1")
    summary = tmp_path / "jobs" / name / "ab" / "ab.json"
    summary.write_text(json.dumps({k: v for k, v in json.loads(summary.read_text()).items()
                                   if k not in ("geomean", "geomean_instructions")}))
    result = pull_request("comment", name, env=_env(tmp_path, github))
    assert result.returncode == 0, result.stderr
    assert "Geometric mean" not in github.comments[-1]["body"] and "tiny/sum" in github.comments[-1]["body"]


def test_no_affected_family_says_nothing_was_measured(tmp_path, github):
    result = pull_request("comment", _job(tmp_path / "jobs", "run-1", families=(), ab=False),
                          env=_env(tmp_path, github))
    assert result.returncode == 0, result.stderr
    assert "No benchmark is affected" in github.comments[-1]["body"]


def test_a_pull_request_from_a_fork_gets_the_job_summary_only(tmp_path, github):
    env = _env(tmp_path, github, head_repo="someone/stallbench")
    result = pull_request("comment", _job(tmp_path / "jobs", "run-1"), env=env)
    assert result.returncode == 0, result.stderr
    assert github.requests == []  # not even a read: nothing is posted
    assert MARKER in (tmp_path / "summary.md").read_text() and "fork" in result.stdout


def test_a_refused_write_is_one_line(tmp_path):
    fake = FakeGitHub(refuse={"POST"})
    try:
        result = pull_request("comment", _job(tmp_path / "jobs", "run-1"), env=_env(tmp_path, fake))
    finally:
        fake.close()
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "HTTP 403" in line and "Resource not accessible" in line


# --- the workflow ---------------------------------------------------------------------------------

def test_the_workflow_runs_the_script_and_fails_with_ab():
    yaml = pytest.importorskip("yaml")
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text()
    flow = yaml.safe_load(text)
    assert "pull_request" in flow[True]  # YAML 1.1 reads the key `on` as True
    assert flow["permissions"] == {"contents": "read", "pull-requests": "write"}
    steps = flow["jobs"]["measure"]["steps"]
    gate = next(s for s in steps if "scripts/pull-request measure" in s.get("run", ""))
    assert "if" not in gate and not gate.get("continue-on-error")  # its exit code, ab's, is the job's
    assert "github.event.pull_request.base.sha" in gate["run"] and "github.event.pull_request.head.sha" in gate["run"]
    assert "--budget" in gate["run"]
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "${{ !cancelled() }}" and "env.JOB" in upload["with"]["path"]
    post = next(s for s in steps if "scripts/pull-request comment" in s.get("run", ""))
    assert post["if"] == "${{ !cancelled() }}"  # a cancelled run never overwrites a finished comment
    assert post["continue-on-error"] is True  # a refused comment does not fail it
    assert "steps.upload.outputs.artifact-url" in post["env"]["STALLBENCH_ARTIFACT_URL"]
    assert "secrets.GITHUB_TOKEN" in post["env"]["GITHUB_TOKEN"]
    assert steps.index(upload) < steps.index(post)
    assert "set +e" not in text and "|| true" not in text
