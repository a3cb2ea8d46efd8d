"""Installing pinned Node lines (scripts/bootstrap --node): one line into a temporary dependency
folder reports its pinned version, and its start-up tail is measured and stored the first time the
model of that line needs it; an unpinned line, and an install that cannot reach the registry, are one
line and exit 2, leaving nothing installed."""
import json
import os
import subprocess

import pytest

from conftest import ROOT, stallbench_command
from stallbench_lib import node as nodejs, startup_tail

BOOTSTRAP = ROOT / "scripts" / "bootstrap"
SMALLEST = "18"  # the oldest line's tarball is the smallest download


def _bootstrap(*args, env):
    return subprocess.run([str(BOOTSTRAP), *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, **env})


def test_a_pinned_line_installs_into_the_given_folder_and_reports_its_version(tmp_path):
    result = _bootstrap("--node", SMALLEST, env={"STALLBENCH_DEPS": str(tmp_path)})
    if result.returncode != 0 and any(w in result.stderr for w in ("ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN")):
        pytest.skip(f"the npm registry is not reachable here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    binary = tmp_path / "npm" / f"node-{SMALLEST}" / "node_modules"
    (found,) = [p for p in binary.glob("node-linux-*/bin/node")]
    version = subprocess.run([str(found), "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    assert version == f"v{nodejs.pinned()[SMALLEST]}"
    # Installing costs the download alone: the start-up tail (what trace's model of that line spends
    # without --node) is measured when the model needs it, and stored with the line.
    tail = tmp_path / "npm" / f"node-{SMALLEST}" / startup_tail.STORED_NAME
    assert not tail.exists()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STALLBENCH_DEPS", str(tmp_path))
        patch.delenv("STALLBENCH_NODE", raising=False)
        measured = startup_tail.without_node(SMALLEST, needed=True)
        assert measured.samples_ms and json.loads(tail.read_text())["node"] == version
        # Stored for a run that may not run Node: read back then (a run that may measures again).
        patch.setenv("STALLBENCH_NODE", "none")
        assert startup_tail.without_node(SMALLEST, needed=True).samples_ms == pytest.approx(measured.samples_ms, abs=1e-4)


def test_an_unpinned_line_is_one_line_and_exit_2(tmp_path):
    result = _bootstrap("--node", "19", env={"STALLBENCH_DEPS": str(tmp_path)})
    assert result.returncode == 2
    pinned = ", ".join(nodejs.pinned())
    assert result.stderr.strip() == f"stallbench: --node 19 is not a pinned Node line (valid: {pinned}, all, newest)"
    assert not any(tmp_path.iterdir())


def test_an_install_that_cannot_reach_the_registry_is_one_line_and_exit_2(tmp_path):
    # A registry nobody listens on, an empty npm cache and no retries: what an offline machine sees.
    offline = {"STALLBENCH_DEPS": str(tmp_path / "deps"), "npm_config_registry": "http://127.0.0.1:9/",
               "npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_fetch_retries": "0"}
    result = _bootstrap("--node", SMALLEST, env=offline)
    assert result.returncode == 2, result.stderr
    said = [line for line in result.stderr.splitlines() if line.startswith("stallbench: ") and "installing" not in line]
    assert len(said) == 1 and f"node-{SMALLEST}" in said[0], result.stderr
    assert not (tmp_path / "deps" / "npm" / f"node-{SMALLEST}").exists()
    through_command = stallbench_command("run", "--no-build", "--node", SMALLEST, env=offline)
    assert through_command.returncode == 2
    # The install's progress is shown as it goes; the failure is one line, naming the set.
    failure = [line for line in through_command.stderr.splitlines() if "installing" not in line]
    assert len(failure) == 1 and f"node-{SMALLEST}" in failure[0], through_command.stderr
