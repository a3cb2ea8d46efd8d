"""Shared helpers for the Python tests: where the build is, and how to call the command."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
BUILD = Path(os.environ.get("STALLBENCH_BUILD_DIR", ROOT / "build" / "release"))
DATA = Path(__file__).parent / "data"


class Quiet:
    """A progress display that shows nothing: what runner.run_cell is given in the tests."""

    def repetition(self, _):
        pass

    def tick(self):
        pass


def stallbench(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real launcher, as a user runs it, against the build under test."""
    full_env = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), **(env or {})}
    return subprocess.run([str(ROOT / "scripts" / "stallbench"), *args], capture_output=True, text=True,
                          timeout=timeout, env=full_env)


def stallbench_command(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """The command itself (python -m stallbench_lib), without the launcher's check of the OS
    packages: for the many runs whose point is the command's own behaviour, where that check (seconds
    on a busy machine, every time) adds nothing. The launcher itself is what `stallbench` runs."""
    full_env = {**os.environ, "STALLBENCH_BUILD_DIR": str(BUILD), "PYTHONPATH": str(ROOT / "scripts"), **(env or {})}
    return subprocess.run([sys.executable, "-m", "stallbench_lib", *args], capture_output=True, text=True,
                          timeout=timeout, env=full_env)


def guide_list(guide: Path, section: str) -> set[str]:
    """The backticked paths of one list of an "adding a ..." guide ("Written by hand", "Generated")."""
    text = guide.read_text()
    found = re.search(rf"^{re.escape(section)}[^\n]*:\n\n((?:- .*\n(?:  .*\n)*)+)", text, re.M)
    assert found, f"{guide} has no list '{section}:'"
    return set(re.findall(r"^- `([^`]+)`", found.group(1), re.M))


def tree(path: Path) -> dict[str, bytes]:
    """Every file under `path` with its bytes, to show that nothing changed."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def runs_in(out: Path) -> set[Path]:
    """The run folders under `out` now."""
    return {p for p in out.iterdir() if p.is_dir()} if out.exists() else set()


def the_new_run(out: Path, before: set[Path]) -> Path | None:
    """The one run folder a command added to `out`. Run ids sort by their start second, then a random
    part, so two runs of one second sort either way: the newest is the one that was not there before."""
    added = runs_in(out) - before
    assert len(added) <= 1, f"one command wrote {len(added)} runs: {sorted(added)}"
    return added.pop() if added else None


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """One `run --profile smoke` for the whole session; returns (completed process, run dir)."""
    out = tmp_path_factory.mktemp("smoke")
    # The limit only stops a hung run (every cell has its own); the profile takes about a minute here,
    # and over five minutes when other builds keep a 2-core machine ten times oversubscribed.
    result = stallbench("run", "--profile", "smoke", "--no-build", "--out", str(out), timeout=900)
    runs = [p for p in out.iterdir() if p.is_dir()]
    return result, runs[0] if runs else None


@pytest.fixture(scope="module")
def node_path():
    """A Node to run (a pinned line, else the node on PATH); the test is skipped, saying why, without one."""
    from stallbench_lib import node as nodejs
    node, why = nodejs.find()
    if node is None:
        pytest.skip(why)
    return node.path


@pytest.fixture(scope="module")
def regex_tools():
    """The pinned regex-tools npm set and the Node line they run on, installed on demand; a test that
    needs them is skipped where they cannot be had."""
    from stallbench_lib.families.regex import tools
    try:
        tools.ensure_installed()
        tools.tool_node()
    except tools.ToolFailed as e:
        pytest.skip(f"the regex tools cannot be had here: {e}")
