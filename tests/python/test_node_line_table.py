"""The Node lines are declared once, in the C++ table of workloads/loop/node_line.cc, which the bench
binaries export (`node_lines`): every pinned line has a model and every model a pin, the files
written from the table (the pins file, the docs table) are what the table makes of them, no code or
test spells the list of lines, and docs/adding-a-node-line.md names exactly the files a new line
touches. A line added to the table reaches every generated file (followed here without the
registry: the lock files need it, and test_node_lines.py checks them for every pinned line)."""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, guide_list
from stallbench_lib import node, node_line_table

ADDING = ROOT / "docs" / "adding-a-node-line.md"


@pytest.fixture(scope="module")
def rows():
    return node_line_table.load(BUILD)


def test_every_pinned_line_has_a_model_and_every_model_a_pin(rows):
    modelled = {row["line"]: row["release"] for row in rows}
    pinned = node.pinned()
    assert [line for line in pinned if line not in modelled] == [], "pinned lines without a model"
    assert [line for line in modelled if line not in pinned] == [], "modelled lines without a pin"
    assert pinned == modelled, "the pins file's releases differ from the table's"
    assert list(modelled) == sorted(modelled, key=int), "the table lists the lines oldest first"


def test_the_table_is_the_one_in_the_cpp_source(rows):
    text = node_line_table.SOURCE.read_text()
    for row in rows:
        assert re.search(rf'\{{{row["line"]}, "{re.escape(row["release"])}", "{re.escape(row["libuv"])}",', text), row


def test_the_generated_files_are_what_the_table_makes_of_them(rows):
    for path, text in node_line_table.generated(rows).items():
        assert path.read_text() == text, (f"{path.relative_to(ROOT)} differs from the Node line table: run "
                                          "scripts/pin-npm (docs/adding-a-node-line.md)")


def test_every_pinned_line_has_its_lock_files(rows):
    for row in rows:
        for path in node_line_table.lock_files(row["line"]):
            assert path.is_file(), f"{path.relative_to(ROOT)}: run scripts/pin-npm"


def test_a_line_added_to_the_table_reaches_every_generated_file(rows, tmp_path, monkeypatch):
    newest = rows[-1]
    added = {**newest, "line": str(int(newest["line"]) + 2), "release": f"{int(newest['line']) + 2}.0.0"}
    texts = node_line_table.generated([*rows, added])
    pins = tmp_path / "node-lines.txt"
    pins.write_text(texts[node.LINES_FILE])
    monkeypatch.setattr(node, "LINES_FILE", pins)
    assert node.pinned() == {**{r["line"]: r["release"] for r in rows}, added["line"]: added["release"]}
    assert node.parse_lines("all")[-1] == added["line"] and node.default_lines()[0] == added["line"]
    row = f"| {added['line']} | {added['release']} | {added['libuv']} |"
    assert [line for line in texts[node_line_table.DOCS].splitlines() if line.startswith(row)] != []


def test_the_guide_names_exactly_the_files_the_declaration_drives():
    relative = lambda p: str(p.relative_to(ROOT))
    assert guide_list(ADDING, "Written by hand") == {relative(node_line_table.SOURCE)}
    assert guide_list(ADDING, "Generated") == {*map(relative, node_line_table.GENERATED),
                                    *map(relative, node_line_table.lock_files("LINE"))}


def test_no_code_or_test_spells_the_list_of_lines(rows):
    """A list of every line written out (as a test's expected message once was) is a second
    declaration: adding a line would break it. Docs may still quote measurements made on the lines."""
    lines = [row["line"] for row in rows]
    spelled = re.compile(r"\D{0,2}\s*[,;]\s*\D{0,2}".join(rf"\b{line}\b" for line in lines))
    tracked = subprocess.run(["git", "ls-files", "scripts", "tests", "benches", "workloads", "tools"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    generated = {node_line_table.SOURCE, *node_line_table.GENERATED}
    found = []
    for name in tracked:
        path = ROOT / name
        if path in generated or path.suffix not in {"", ".py", ".cc", ".h", ".js", ".sh", ".txt", ".md", ".cmake"}:
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        found += [f"{name}: {m.group(0)}" for m in spelled.finditer(text)]
    assert found == []
