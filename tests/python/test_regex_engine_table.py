"""The regex engines are declared once, as rows of the table in workloads/regex/engines.cc, which
bench_regex exports (`engines`): the files written from it (the engines' lines of
scripts/packages/regex.txt, docs/regex.md's engine table) are what the table makes of them, CMake's
install hint for every engine is the row's packages read back from that list, a row added to the
table reaches every generated file and CMake's reading of it, and docs/adding-an-engine.md names
exactly the files an engine is written in and the files generated for it."""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, guide_list
from stallbench_lib import build, catalogue, generated_files, optional
from stallbench_lib.families.regex import generated

ADDING = ROOT / "docs" / "adding-an-engine.md"
ENGINE_PACKAGES = ROOT / "workloads" / "regex" / "engine_packages.cmake"


@pytest.fixture(scope="module")
def families():
    return catalogue.load(build.bench_binaries(BUILD))


@pytest.fixture(scope="module")
def rows(families):
    return generated.rows(families)


def hint(row: dict) -> str:
    """The install hint CMake gives for a missing engine: its packages, alternatives with "or"."""
    return ", ".join(item.replace("|", " or ") for item in generated.items(row))


def test_the_generated_files_are_what_the_tables_make_of_them(families):
    for path, text in generated_files.generated(families).items():
        assert path.read_text() == text, (f"{path.relative_to(ROOT)} differs from the table it is written from: "
                                          "run scripts/write-generated (docs/adding-an-engine.md)")


def test_every_engine_with_a_package_has_its_lines_in_the_package_list(rows):
    listed = {}
    for line in generated.PACKAGES.read_text().splitlines():
        if found := re.fullmatch(r"(\S+) +# for (.+)", line):
            for engine in found.group(2).split(", "):
                listed.setdefault(engine, []).append(found.group(1))
    assert listed == {row["name"]: generated.items(row) for row in rows if row["package"]}


def test_cmake_hints_every_engine_with_the_packages_of_its_row(rows):
    """optional-dependencies.json is what CMake made of the engines this build looked for."""
    declared = {d.name: d for d in optional.load(BUILD)[0] if d.family == "regex" and d.kind == "engine"}
    by_name = {row["name"]: row for row in rows}
    assert declared, "the build declares no optional regex engine"
    for name, dependency in declared.items():
        assert dependency.install == hint(by_name[name]), name


def test_a_package_that_is_not_a_debian_name_is_refused(rows):
    bad = {**rows[0], "package": "libfoo-dev, libbar"}
    with pytest.raises(Exception, match="not a Debian package name"):
        generated.package_lines([bad])


def _cmake_hint(package_list, engine: str) -> str:
    script = package_list.parent / "hint.cmake"
    script.write_text(f'cmake_minimum_required(VERSION 3.22)\nset(STALLBENCH_REGEX_PACKAGES "{package_list}")\n'
                      f'include("{ENGINE_PACKAGES}")\n'
                      f'stallbench_engine_packages({engine} out)\nmessage("${{out}}")\n')
    done = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True, check=True)
    return done.stderr.strip()


def test_a_row_added_to_the_table_reaches_every_generated_file_and_cmake(rows, families, tmp_path, monkeypatch):
    added = {**rows[0], "name": "tcl", "implementation": "tcl", "language": "Tcl",
             "package": "tcl8.6|tcl libfoo-dev", "doc": "Tcl's regexp, in a tclsh program"}
    table = next(f for f in families if f.name == "regex").tables["engines"]
    monkeypatch.setitem(next(f for f in families if f.name == "regex").tables, "engines", [*table, added])
    texts = generated_files.generated(families)
    package_list = tmp_path / "regex.txt"
    package_list.write_text(texts[generated.PACKAGES])
    assert _cmake_hint(package_list, "tcl") == "tcl8.6 or tcl, libfoo-dev"
    assert _cmake_hint(package_list, "pcre2-jit") == hint(next(r for r in rows if r["name"] == "pcre2-jit"))
    assert [line for line in texts[generated.DOCS].splitlines() if line.startswith("| `tcl` | Tcl's regexp")] != []
    wanted = [re.sub(r"#.*", "", line).strip() for line in texts[generated.PACKAGES].splitlines()]
    assert "tcl8.6|tcl" in wanted and "libfoo-dev" in wanted  # as scripts/bootstrap reads the list


def test_the_guide_names_exactly_the_files_an_engine_is_written_in():
    relative = lambda p: str(p.relative_to(ROOT))
    assert guide_list(ADDING, "Generated") == set(map(relative, generated.GENERATED))
    for section, kind, example in (("Written by hand, for an engine of another language", "programs", "python"),
                                   ("Written by hand, for a C++ library", "adapters", "re2")):
        paths = guide_list(ADDING, section)
        assert relative(generated.SOURCE) in paths, section
        folder = ROOT / "workloads" / "regex" / kind / example
        # The worked example has exactly these files, the folder's own (the program) aside.
        for path in paths - {relative(generated.SOURCE)}:
            assert (ROOT / path.replace("<engine>", example)).exists(), path
        assert {p.name for p in folder.iterdir()} >= {"CMakeLists.txt"}
