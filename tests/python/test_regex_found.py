"""What `stallbench regex` finds for you, against the real tools and engines: recheck's attack for a
pattern given without one, the regexes of a source tree (--scan), rewrite counterexamples from
real advisories, wrong answers kept out of the classification, and V8 per Node line. Needs the
build, Node and the pinned regex-tools npm set (installed on demand; skipped when they cannot be)."""
import csv
import json

import pytest

from conftest import BUILD, DATA, runs_in, stallbench, the_new_run
from stallbench_lib import runtimes
from stallbench_lib.catalogue import describe
from stallbench_lib.families.regex import attacks, checker, patterns, scan, verify
from stallbench_lib.families.regex.engines import Engines
from stallbench_lib.tidy import read_csv

# Two advisories whose fix is not the original's language (issue 14): the rewrite check must find it.
COLOR_STRING_HWB = r"^hwb\(\s*([+-]?\d*[\.]?\d+)(?:deg)?\s*,\s*([+-]?[\d\.]+)%\s*,\s*([+-]?[\d\.]+)%\s*(?:,\s*([+-]?[\d\.]+)\s*)?\)$"
COLOR_STRING_HWB_FIX = r"^hwb\(\s*([+-]?\d{0,3}(?:\.\d+)?)(?:deg)?\s*,\s*([+-]?[\d\.]+)%\s*,\s*([+-]?[\d\.]+)%\s*(?:,\s*([+-]?[\d\.]+)\s*)?\)$"
UA_PARSER_BNR = r"android.+[;\/]\s+(Barnes[&\s]+Noble\s+|BN[RT])(V?.*)\s+build"
UA_PARSER_BNR_FIX = r"android.+[;\/]\s+(Barnes[&\s]+Noble\s+|BN[RT])(\S(?:.*\S)?)\s+build"


def toml_string(text: str) -> str:
    return json.dumps(text)


def regex_run(tmp_path, *args):
    out = tmp_path / "out"
    before = runs_in(out)
    result = stallbench("regex", "--no-build", "--no-throughput", "--no-report", "--out", str(out), *args)
    return result, the_new_run(out, before)


def verdicts(run_dir):
    with open(run_dir / "classification.csv") as f:
        return {(r["pattern"], r["engine"]): r for r in csv.DictReader(f)}


def test_an_attack_is_found_for_a_pattern_without_a_pump(tmp_path, regex_tools):
    result, run_dir = regex_run(tmp_path, "--pattern", "^(a+)+$", "--engines", "std,re2", "--budget-ms", "300",
                                "--node", "none")
    assert result.returncode == 0, result.stderr
    assert "pattern-1: recheck 4.5.0" in result.stderr and "exponential" in result.stderr
    (entry,) = patterns.load(run_dir / "catalogue.toml")
    assert entry.pumps and entry.attack.startswith("recheck 4.5.0") and entry.expect == "exponential"
    assert set(entry.pumps[0].pump) == {"a"}
    found = verdicts(run_dir)
    assert found[("pattern-1", "re2")]["verdict"] == "linear"
    assert found[("pattern-1", "std")]["stop_status"] == "timeout"  # the attack works on a backtracking engine


def test_scan_finds_literals_and_constant_constructions_with_their_line_and_skips_dynamic_ones(regex_tools):
    found = scan.scan(DATA / "regex_scan")
    by_regex = {p.regex: p for p in found.patterns}
    assert set(by_regex) == {"^(a+)+$", "^\\d+$", "^\\w+$"}
    assert found.places[by_regex["^(a+)+$"].name] == ["lib/parse.js:4:16"]
    assert found.places[by_regex["^\\d+$"].name] == ["lib/parse.js:7:10"]   # 'a' + 'b' folded
    assert by_regex["^\\w+$"].flags == "i" and by_regex["^\\w+$"].source == "src/words.ts:2:29"
    assert all(p.reference is None and not p.pumps for p in found.patterns)
    # JavaScript's engine in the bench's table is their reference (V8).
    table = Engines.from_family(describe(BUILD / "benches" / "bench_regex"))
    assert all(p.reference == "node" for p in scan.with_reference(found, found.patterns, table))
    assert [(d["file"], d["line"], d["why"]) for d in found.dynamic] == [
        ("lib/parse.js", 11, "the pattern is not a constant"), ("src/words.ts", 4, "the flags are not a constant")]
    assert found.files == {"JavaScript/TypeScript": 2} and not found.unparsed  # node_modules/ not entered
    assert found.declarations == 1  # src/words.d.mts: types only, skipped as such
    assert "1 TypeScript declaration files" in scan.summary_lines(found)[0]


def test_scan_runs_the_study_and_writes_an_editable_catalogue(tmp_path, regex_tools):
    result, run_dir = regex_run(tmp_path, "--scan", str(DATA / "regex_scan"), "--engines", "std,re2",
                                "--lengths", "24,28,32", "--budget-ms", "300", "--node", "none")
    assert result.returncode == 0, result.stderr
    assert "not measured: lib/parse.js:11:10: new RegExp: the pattern is not a constant" in result.stderr
    risky = result.stdout.split("risky first")[1]
    first = risky.splitlines()[1]
    assert first.startswith("lib-parse-js-L4: lib/parse.js:4:16") and "blow up: std" in risky.splitlines()[2]
    again = patterns.load(run_dir / "catalogue.toml")  # the user's starting point: every attack filled in
    assert {p.regex for p in again} == {"^(a+)+$", "^\\d+$", "^\\w+$"} and all(p.pumps for p in again)
    # The triage measured every regex on every engine in one process per engine; only the engine
    # that blew up on the regex that grew was escalated, in the probe through the given lengths; the
    # others' verdicts come from the triage. No match cell ran.
    pair = lambda r: (r.params["pattern"], runtimes.label(r.params, "engine"))
    results = run_dir / "results.csv"  # no cell at all here (--no-throughput): no results.csv
    assert not results.exists() or not [r for r in read_csv(results) if r.benchmark == "match"]
    escalation = read_csv(run_dir / "escalation.csv")
    escalated = {pair(r) for r in escalation}
    triaged = {pair(r) for r in read_csv(run_dir / "triage.csv")}
    assert escalated == {("lib-parse-js-L4", "std")}
    assert max(int(r.params["length"]) for r in escalation) <= 32
    assert triaged == {(p, e) for p in ("lib-parse-js-L7", "src-words-ts-L2", "lib-parse-js-L4") for e in ("std", "re2")
                       } - escalated
    assert set(verdicts(run_dir)) == escalated | triaged


@pytest.mark.parametrize("original, fixed, flags", [(COLOR_STRING_HWB, COLOR_STRING_HWB_FIX, ""),
                                                    (UA_PARSER_BNR, UA_PARSER_BNR_FIX, "i")])
def test_rewrite_check_finds_the_advisories_counterexamples(original, fixed, flags, regex_tools):
    # color-string's hwb(1234,1%,1%) and ua-parser-js's "android x; BNR build": matched by the
    # original, not by the fix. The attack is irrelevant here (the sample check only). Before the
    # alphabet held escaped metacharacters and generated strings, neither pair had a counterexample.
    (pattern,) = patterns.parse(f"[[pattern]]\nname = \"advisory\"\nregex = {toml_string(original)}\n"
                                f"safe = {toml_string(fixed)}\nflags = \"{flags}\"\npump = \"0\"\nsource = \"test\"\n", "t")
    generated = attacks.analyse([pattern]).generated
    found = verify.check_pattern(checker.binary(BUILD), ["std", "pcre2", "re2"], pattern,
                                 generated["advisory"] + generated["advisory.safe"])
    assert found["status"] == "ok" and not found["disagreements"]
    # The advisory's direction (the hwb fix also accepts an empty hue: the other direction).
    assert any(c["original"] and not c["safe"] for c in found["counterexamples"]), found["counterexamples"]


def test_an_engine_reading_backslash_u_differently_is_wrong_answers_not_a_growth_class(tmp_path, regex_tools):
    # \u0031 is "1" for V8 and std::regex (ECMAScript); Boost reads \u as "an uppercase letter".
    # A flags entry beside it: dotAll runs where an engine has it and is `rejected` in std::regex.
    catalogue = tmp_path / "p.toml"
    catalogue.write_text('format = 2\n[[pattern]]\nname = "escape-u"\nregex = \'^\\u0031+!$\'\nprefix = "1"\npump = "1"\n'
                         'suffix = "!"\nreference = "node"\nlengths = [8, 64, 512]\nsource = "test"\n'
                         '[[pattern]]\nname = "dot-all"\nregex = "^a.+b$"\nflags = "s"\npump = "\\\\x0a"\n'
                         'prefix = "a"\nlengths = [8, 64, 512]\nsource = "test"\n')
    result, run_dir = regex_run(tmp_path, "--patterns", str(catalogue), "--engines", "boost,std,node",
                                "--node", "26", "--budget-ms", "3000")
    assert result.returncode == 0, result.stderr  # the disagreement is explained: Boost is wrong
    found = verdicts(run_dir)
    assert found[("escape-u", "boost")]["verdict"] == "wrong answers"
    assert "where node says match" in found[("escape-u", "boost")]["description"]
    assert found[("escape-u", "std")]["verdict"] == "linear" and found[("escape-u", "node@26")]["verdict"] == "linear"
    # One line for Boost on that pattern, however many inputs it answered wrongly; each is in the CSV.
    findings = [line for line in result.stderr.splitlines() if line.startswith(("WRONG ANSWERS", "DISAGREEMENT"))]
    (wrong,) = [line for line in findings if "boost" in line and "escape-u" in line]
    assert wrong.startswith("WRONG ANSWERS: boost on escape-u: ") and "DISAGREEMENT" not in result.stderr
    with open(run_dir / "disagreements.csv") as f:
        boost_wrong = [r for r in csv.DictReader(f) if r["pattern"] == "escape-u" and "boost" in r["wrong_engines"]]
    assert len(boost_wrong) > 1 and wrong.split(": ")[2].startswith(f"{len(boost_wrong):,} inputs")
    rows = {(runtimes.label(r.params, "engine"), r.params["pattern"]): r for r in read_csv(run_dir / "results.csv")
            if r.metric == "match_ms"}
    assert rows[("std", "dot-all")].status == "rejected" and "flag s" in rows[("std", "dot-all")].detail
    assert rows[("boost", "dot-all")].status == "ok" and rows[("node@26", "dot-all")].status == "ok"
    meta = json.loads((run_dir / "meta.json").read_text())
    assert [n["runtime"] for n in meta["nodes"]] == ["node@26"] and meta["nodes"][0]["version"].startswith("v26.")


def test_node_linear_says_where_v8s_linear_engine_cannot_apply(tmp_path, regex_tools):
    # V8's linear engine takes no `i` flag: with it, node-linear backtracks as node does, and its
    # rows, classification and matrix say so; the same pattern without `i` switches engines.
    catalogue = tmp_path / "p.toml"
    catalogue.write_text("".join(f'[[pattern]]\nname = "{name}"\nregex = "^(a+)+$"\nflags = "{flags}"\npump = "a"\n'
                                 'suffix = "!"\nlengths = [6, 8, 10]\nsource = "test"\n'
                                 for name, flags in (("nested-i", "i"), ("nested", ""))))
    result, run_dir = regex_run(tmp_path, "--patterns", str(catalogue), "--engines", "node-linear", "--node", "26")
    assert result.returncode == 0, result.stderr
    fell = {r.params["pattern"]: r.value for r in read_csv(run_dir / "results.csv") if r.metric == "fell_back"}
    assert fell == {"nested-i": 1, "nested": 0}
    found = verdicts(run_dir)
    assert "the i flag" in found[("nested-i", "node-linear@26")]["fallback"]
    assert found[("nested", "node-linear@26")]["fallback"] == ""
    matrix = {line.split()[0]: line for line in result.stdout.splitlines() if line.startswith("nested")}
    assert "(fell back)" in matrix["nested-i"] and "(fell back)" not in matrix["nested"]


def test_a_scan_measures_node_linear_once_where_it_falls_back(tmp_path, regex_tools):
    # Where V8's linear engine cannot run the regex, node-linear@26 backtracks as node@26 does: the
    # scan measures node@26 alone and gives node-linear@26 its curve, saying so; where it can, both.
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.js").write_text("export const nested = /^(a+)+$/;\nexport const nestedI = /^(a+)+$/i;\n")
    result, run_dir = regex_run(tmp_path, "--scan", str(tree), "--no-cache", "--engines", "node,node-linear",
                                "--node", "26")
    assert result.returncode == 0, result.stderr
    measured = {(r.params["pattern"], runtimes.label(r.params, "engine"))
                for name in ("triage.csv", "escalation.csv") for r in read_csv(run_dir / name)}
    assert measured == {("m-js-L1", "node@26"), ("m-js-L1", "node-linear@26"), ("m-js-L2", "node@26")}
    found = verdicts(run_dir)
    mine, its = found[("m-js-L2", "node-linear@26")], found[("m-js-L2", "node@26")]
    assert "the i flag" in mine["fallback"] and "measured as node@26" in mine["description"]
    assert (mine["verdict"], mine["degree"], mine["points"]) == (its["verdict"], its["degree"], its["points"])
    assert "measured as" not in found[("m-js-L1", "node-linear@26")]["description"]
    assert "1 pair left to the engine whose algorithm it falls back to" in result.stderr


def test_a_safe_or_mild_verdict_of_recheck_s_fuzzer_alone_is_not_taken_as_it_is(tmp_path, regex_tools):
    # Bounded repeats over recheck's maxRepeatCount inside a nested quantifier: its automaton checker
    # gives up and its fuzzer calls both "4th degree polynomial". The first is too big for the
    # automaton even with raised limits: the worst of the attacks measured (ours: a run of \w for
    # the nested quantifier) is exponential; the second the automaton decides with raised limits.
    result, run_dir = regex_run(tmp_path, "--pattern", r"^(\w{44,88}\s?)+$", "--pattern", "^(?:a{2,40})+$",
                                "--engines", "node,re2", "--node", "26")
    assert result.returncode == 0, result.stderr
    attacks = {p.name: p.attack for p in patterns.load(run_dir / "catalogue.toml")}
    assert "uncertain" in attacks["pattern-1"] and "worst of" in attacks["pattern-1"]
    assert "with raised limits: exponential" in attacks["pattern-2"]
    found = verdicts(run_dir)
    for name in ("pattern-1", "pattern-2"):
        assert found[(name, "node@26")]["verdict"] == "exponential", found[(name, "node@26")]
        assert found[(name, "re2")]["verdict"] == "linear"


def test_a_rescan_measures_only_the_regexes_it_has_not_seen(tmp_path, regex_tools):
    import shutil

    tree = tmp_path / "tree"
    shutil.copytree(DATA / "regex_scan", tree)
    args = ("--scan", str(tree), "--engines", "std,re2", "--node", "none", "--lengths", "24,28,32", "--budget-ms", "300")
    first, first_run = regex_run(tmp_path, *args)
    assert first.returncode == 0, first.stderr
    (tree / "lib" / "more.js").write_text("export const hex = /^[0-9a-f]+$/;\n")
    again, second_run = regex_run(tmp_path, *args)
    assert again.returncode == 0, again.stderr
    assert "3 of 4 regexes measured before by these engine versions" in again.stderr
    assert second_run not in (None, first_run)
    assert {k[0] for k in verdicts(second_run)} == {"lib-more-js-L1"}  # only the new regex was measured
    assert "[cached: measured by run " in again.stdout and "lib-parse-js-L4" in again.stdout
    nothing_new, _ = regex_run(tmp_path, *args)
    assert nothing_new.returncode == 0 and "4 of 4 regexes measured before" in nothing_new.stderr
    assert len([p for p in (tmp_path / "out").iterdir() if p.is_dir()]) == 2  # no run: nothing to measure


def test_a_cache_that_is_not_one_is_refused_in_one_line(tmp_path, regex_tools):
    bad = tmp_path / "cache.json"
    bad.write_text("{")
    result, run_dir = regex_run(tmp_path, "--scan", str(DATA / "regex_scan"), "--engines", "std", "--node", "none",
                                "--cache", str(bad))
    assert result.returncode == 2 and run_dir is None
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"stallbench: {bad}: not a stallbench regex cache") and "--no-cache" in line


def test_a_build_without_the_triage_helper_is_one_line_before_anything_is_measured(tmp_path, regex_tools):
    # A build made for fewer targets (a preset's list) lacked regex_probe: the scan ran recheck and
    # the sample check, then stopped on a traceback.
    build = tmp_path / "build"
    (build / "benches").mkdir(parents=True)
    for name in ("bench_regex", "regex_check"):
        (build / "benches" / name).symlink_to(BUILD / "benches" / name)
    result = stallbench("regex", "--no-build", "--scan", str(DATA / "regex_scan"), "--engines", "std,re2", "--node",
                        "none", "--out", str(tmp_path / "out"), env={"STALLBENCH_BUILD_DIR": str(build)})
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1].endswith(f"{build / 'benches' / 'regex_probe'} is not built: run "
                                                          f"without --no-build, or build its target (regex_probe) in {build}")
    assert "Traceback" not in result.stderr and "finding attacks" not in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_scan_runs_the_throughput_cells_only_when_asked(tmp_path, regex_tools):
    # They measure the engines on fixed patterns, not the tree: a scan's time goes to its regexes.
    args = ("--scan", str(DATA / "regex_scan"), "--engines", "std,re2", "--node", "none", "--lengths", "24,28,32",
            "--budget-ms", "300", "--no-cache")
    runs = {}
    for name, asked in (("plain", ()), ("asked", ("--throughput",))):
        result = stallbench("regex", "--no-build", "--no-report", "--out", str(tmp_path / name), *asked, *args)
        assert result.returncode == 0, result.stderr
        (runs[name],) = runs_in(tmp_path / name)
    plain_run, asked_run = runs["plain"], runs["asked"]
    assert (plain_run / "classification.csv").exists() and not (plain_run / "results.csv").exists()
    rows = read_csv(asked_run / "results.csv")
    assert {r.benchmark for r in rows} == {"throughput"}
    assert {runtimes.label(r.params, "engine") for r in rows} == {"std", "re2"}
    # the verdicts are the same either way: the cells add rows, not measurements of the tree's regexes
    assert {k for k in verdicts(plain_run)} == {k for k in verdicts(asked_run)}


@pytest.mark.parametrize("extra", [("--pattern", "a+"), ("--scan", str(DATA / "regex_scan"), "--no-throughput")])
def test_throughput_asked_where_it_does_not_apply_is_one_line(tmp_path, extra):
    result = stallbench("regex", "--no-build", "--out", str(tmp_path / "o"), "--throughput", *extra)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "stallbench: --throughput applies to --scan without --no-throughput (a catalogue study runs the throughput "
        "cells unless --no-throughput)"]
    assert not (tmp_path / "o").exists()
