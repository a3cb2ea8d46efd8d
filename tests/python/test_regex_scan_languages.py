"""--scan in every language the suite has an engine for: each language's regexes found by its own
parser (ast, Ruby's parser, javac's tree API, go/parser, acorn) with their file, line, flags and the
constants they are built from; the engine of its language (read from the bench's engine table) its
reference; a mixed tree in one scan, measured first on each regex's own engine. The parsers need
python3, ruby, a JDK and go (the regex family's packages); a test whose runtime is missing is skipped."""
import json
import shutil

import pytest

from conftest import BUILD, DATA, stallbench
from stallbench_lib.catalogue import describe
from stallbench_lib.families.regex import languages, patterns, scan, tools
from stallbench_lib.families.regex.engines import Engines

MIXED = DATA / "regex_scan_mixed"


@pytest.fixture(scope="module")
def runtimes():
    missing = [r.runtime for r in languages.READERS if shutil.which(r.runtime) is None and r.language != "Python"]
    if missing:
        pytest.skip(f"the parsers' runtimes are not all installed here: {', '.join(missing)}")
    try:
        tools.ensure_installed()
        tools.tool_node()
    except tools.ToolFailed as e:
        pytest.skip(f"the regex tools cannot be had here: {e}")


@pytest.fixture(scope="module")
def mixed(runtimes):
    found = scan.scan(MIXED)
    assert not found.skipped, f"a reader did not run: {found.skipped}"  # else each test sees only {}
    return found


def found_in(found, language):
    return {p.regex: (p.flags, found.places[p.name]) for p in found.patterns if found.languages[p.name] == language}


def test_python_calls_of_re_under_any_name_with_folded_constants_and_flags(mixed):
    assert found_in(mixed, "Python") == {
        "^(a+)+$": ("", ["app/parse.py:8:10"]),            # a module constant
        "[a-z]+": ("i", ["app/parse.py:9:9"]),             # `from re import compile as build`, "+" folded
        "(?x)^\\d+ $": ("", ["app/parse.py:10:11"]),       # `import re as rx`; VERBOSE read as Python reads it
        "cat|dog": ("", ["app/parse.py:11:10"])}           # "|".join of a constant list
    assert ("app/parse.py", 15, "the pattern is not a constant") in {
        (d["file"], d["line"], d["why"]) for d in mixed.dynamic}
    assert not any("node_modules" in place for places in mixed.places.values() for place in places)


def test_ruby_literals_interpolated_constants_and_regexp_new(mixed):
    assert found_in(mixed, "Ruby") == {
        "^(a|aa)+$": ("i", ["lib/parse.rb:2:15"]),
        "^x.+y$": ("s", ["lib/parse.rb:3:10"]),            # Ruby's /m is dotAll
        "\\d+": ("", ["lib/parse.rb:4:10"]),               # Regexp.new of a constant
        "\\d+x": ("", ["lib/parse.rb:5:10"])}              # an interpolated constant
    assert ("lib/parse.rb", 6) in {(d["file"], d["line"]) for d in mixed.dynamic}


def test_java_pattern_compile_and_string_matches_with_constant_fields(mixed):
    assert found_in(mixed, "Java") == {
        "\\s+$": ("i", ["src/main/java/m/Parse.java:7:35"]),
        "^(\\d+)+$": ("", ["src/main/java/m/Parse.java:10:12"])}
    assert ("src/main/java/m/Parse.java", 14) in {(d["file"], d["line"]) for d in mixed.dynamic}


def test_the_java_reader_starts_as_it_would_on_a_64_core_machine_and_leaves_no_file(mixed, monkeypatch,
                                                                                  tmp_path):
    # A JVM sizes itself by the machine: CI's larger one once left the Java reader unable to start.
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount=64 -XX:MaxRAM=256g")
    monkeypatch.chdir(tmp_path)
    java = next(r for r in languages.READERS if r.language == "Java")
    reply = languages.read(java, MIXED, ["src/main/java/m/Parse.java"])
    assert {r["source"] for r in reply["regexes"]} == set(found_in(mixed, "Java"))
    assert list(tmp_path.iterdir()) == []


def test_go_regexp_with_raw_string_constants(mixed):
    assert found_in(mixed, "Go") == {"^([a-z]+\\.?)+@x$": ("", ["cmd/main.go:7:10"])}
    assert ("cmd/main.go", 9) in {(d["file"], d["line"]) for d in mixed.dynamic}


def test_the_same_regex_in_two_languages_is_two_entries_each_with_its_own_engine(mixed):
    table = Engines.from_family(describe(BUILD / "benches" / "bench_regex"))
    references = {(mixed.languages[p.name], p.regex): p.reference
                  for p in scan.with_reference(mixed, mixed.patterns, table)}
    assert references[("Python", "^(a+)+$")] == table.for_language("Python") == "python"
    assert references[("JavaScript", "^(a+)+$")] == "node"
    assert {references[(lang, r)] for lang, r in references if lang == "Ruby"} == {"ruby"}
    assert references[("Java", "\\s+$")] == "java" and references[("Go", "^([a-z]+\\.?)+@x$")] == "go"
    # Each entry is written in its language's dialect: its attack is made from its own syntax.
    assert {(mixed.languages[p.name], p.dialect) for p in mixed.patterns} == {
        ("JavaScript", "javascript"), ("Python", "python"), ("Ruby", "ruby"), ("Java", "java"), ("Go", "go")}


def test_every_language_read_has_an_engine_in_the_bench_table(runtimes):
    table = Engines.from_family(describe(BUILD / "benches" / "bench_regex"))
    assert {r.language for r in languages.READERS} <= {row["language"] for row in table.rows}


def test_a_file_its_parser_cannot_read_is_listed_not_fatal(tmp_path, runtimes):
    (tmp_path / "bad.py").write_text("def (\n")
    (tmp_path / "bad.rb").write_text("def (\n")
    (tmp_path / "ok.py").write_text("import re\nre.search(r'\\s+$', s)\n")
    found = scan.scan(tmp_path)
    assert [p.regex for p in found.patterns] == ["\\s+$"]
    assert sorted(u["file"] for u in found.unparsed) == ["bad.py", "bad.rb"]


def test_a_tree_without_any_regex_is_one_line_and_exit_2(tmp_path, runtimes):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.rb").write_text("x = 1\n")
    result = stallbench("regex", "--no-build", "--scan", str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no constant regex found in 1 Python, 1 Ruby files" in lines[0]
    assert not (tmp_path / "out").exists()


def test_a_mixed_tree_in_one_scan_each_regex_measured_on_its_own_engine_first(tmp_path, runtimes):
    out = tmp_path / "out"
    result = stallbench("regex", "--no-build", "--no-throughput", "--no-report", "--no-cache", "--out", str(out),
                        "--scan", str(MIXED), "--engines", "python,ruby,java,go,re2,node", "--node", "26",
                        "--lengths", "16,20,24")
    assert result.returncode in (0, 1), result.stderr
    listing = result.stdout.split("risky first")[1].split("\n\n")[0]
    entry = listing[listing.index("app-parse-py-L8:"):].splitlines()
    assert "[own engine: python]" in entry[0]
    assert entry[1].startswith("  blow up: python ")    # its own engine first
    ruby = listing[listing.index("lib-parse-rb-L2:"):].splitlines()
    assert ruby[1].startswith("  blow up: ruby ")
    assert "time split" in result.stderr and "triage:" in result.stderr
    # Beside recheck alone: only the JavaScript regex (recheck reads JavaScript), its verdict the same.
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    written = {p.name: p.dialect for p in patterns.load(run_dir / "catalogue.toml")}
    slowest = json.loads((run_dir / "meta.json").read_text())["regex"]["time_split"]["slowest_s"]["attacks"]
    assert slowest and set(slowest) <= set(written)  # the regexes whose analysis cost most, named
    assert "slowest: " in result.stderr.split("\n  attacks:", 1)[1].splitlines()[0]
    assert written["app-parse-py-L8"] == "python" and written["lib-parse-rb-L2"] == "ruby"  # reloads as written
    compared = stallbench("versus-recheck", str(run_dir))
    assert compared.returncode == 0, compared.stderr
    assert compared.stdout.startswith("1 regexes, recheck 4.5.0") and "agree: 1 of 1" in compared.stdout
    assert (run_dir / "versus-recheck.csv").read_text().count("\n") == 2
