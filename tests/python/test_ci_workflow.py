"""The CI workflow for pushes and pull requests: every test, through .ci/run alone, in a clean
Debian 12 container (the machine a user has), within CI's time limit."""
import pytest

from conftest import ROOT


def _flow():
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())


def test_pushes_and_pull_requests_run_ci_run_in_a_clean_debian_12_container():
    flow = _flow()
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(triggers) == {"push", "pull_request"}
    assert flow["permissions"] == {"contents": "read"}
    (job,) = flow["jobs"].values()
    assert job["container"] in ("debian:12", {"image": "debian:12"})
    assert 0 < job["timeout-minutes"] <= 90
    runs = [s["run"] for s in job["steps"] if "run" in s]
    assert [s["uses"] for s in job["steps"] if "uses" in s] == ["actions/checkout@v4"]
    # The tests themselves come from .ci/run and nothing else: no package installed by hand beyond
    # what the checkout needs, so the bootstrap is what installs the rest.
    tests = [r for r in runs if ".ci/run" in r]
    assert len(tests) == 1 and "set +e" not in tests[0] and "||" not in tests[0]
    by_hand = [r for r in runs if "apt-get install" in r]
    assert all(set(r.split("--no-install-recommends", 1)[1].split()) <= {"git", "ca-certificates"} for r in by_hand)


def test_ci_run_calls_scripts_test_and_nothing_else_of_substance():
    lines = [l.strip() for l in (ROOT / ".ci" / "run").read_text().splitlines()
             if l.strip() and not l.lstrip().startswith("#")]
    assert lines[-1] == "exec scripts/test"
    assert all(l.startswith(("set ", "cd ", "exec scripts/test")) for l in lines)
