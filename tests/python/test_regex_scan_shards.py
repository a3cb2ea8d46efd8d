"""`regex --scan DIR --shard K/N --group ID` and `stallbench merge` of its shards: the regexes of a
tree split by regex (every engine of a regex on one machine), the same partition on every shard,
and the merge giving the unsplit scan's listing, catalogue and verdicts, or saying which shard is
missing."""
import re
from pathlib import Path

import pytest

from conftest import DATA, stallbench
from stallbench_lib import group_merge, shards
from stallbench_lib.errors import UsageError
from stallbench_lib.families.regex import merge as scan_merge, patterns, scan_shards
from test_regex_found import toml_string, verdicts

TREE = DATA / "regex_scan"
STUDY = ("--no-build", "--no-throughput", "--no-report", "--no-cache", "--engines", "std,re2", "--node", "none",
         "--lengths", "24,28,32", "--budget-ms", "300")


def entry(name: str, regex: str) -> patterns.Pattern:
    (found,) = patterns.parse(f"[[pattern]]\nname = \"{name}\"\nregex = {toml_string(regex)}\npump = \"a\"\nsource = \"t\"\n", "t")
    return found


@pytest.mark.parametrize("regex, repeats", [("^(a+)+$", 2), (r"^\d+$", 1), (r"a\+b*", 1), ("[+*]x", 0),
                                           ("a{2,}b{3}", 1), ("a++b*?", 2), ("[]+]+", 1), (r"\++x*", 2),
                                           ("a{2}+", 0), (".*?,.*", 2)])
def test_the_estimate_counts_unbounded_repeats_outside_classes_and_escapes(regex, repeats):
    assert scan_shards.unbounded_repeats(regex) == repeats


def test_every_regex_goes_to_exactly_one_shard_the_same_whatever_the_order():
    found = [entry(f"f-js-L{i}", "^(a+)+$" if i % 3 == 0 else "^a+$") for i in range(1, 11)]
    parts = [scan_shards.split(found, 15, True, shards.Shard(k, 3), "g") for k in (1, 2, 3)]
    names = [p.name for mine, _, _ in parts for p in mine]
    assert sorted(names) == sorted(p.name for p in found)  # disjoint and covering
    assert [throughput for _, throughput, _ in parts].count(True) == 1
    assert len({record["digest"] for _, _, record in parts}) == 1
    again = scan_shards.split(list(reversed(found)), 15, True, shards.Shard(2, 3), "g")
    assert {p.name for p in again[0]} == {p.name for p in parts[1][0]} and again[2]["digest"] == parts[1][2]["digest"]
    # A regex that can grow costs more: the three of them are not all on one shard.
    growing = {p.name for p in found if scan_shards.unbounded_repeats(p.regex) >= 2}
    assert all(len(growing & {p.name for p in mine}) < len(growing) for mine, _, _ in parts)


@pytest.mark.parametrize("args, says", [
    (("--scan", str(TREE), "--shard", "0/3", "--group", "g"), "--shard '0/3': expected K/N with 1 <= K <= N"),
    (("--scan", str(TREE), "--shard", "two", "--group", "g"), "--shard 'two': expected K/N"),
    (("--scan", str(TREE), "--shard", "2/3"), "--shard 2/3 needs --group ID"),
    (("--pattern", "^a+$", "--shard", "1/2", "--group", "g"), "--shard applies to --scan"),
])
def test_bad_shard_input_is_one_line_and_exit_2(tmp_path, args, says):
    result = stallbench("regex", "--no-build", "--out", str(tmp_path / "out"), *args)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert says in line
    assert not (tmp_path / "out").exists()


def scan_shard(out, k: int, count: int, group: str = "tree"):
    result = stallbench("regex", *STUDY, "--out", str(out), "--scan", str(TREE), "--shard", f"{k}/{count}",
                        "--group", group)
    assert result.returncode == 0, result.stderr
    return result


def listed(stdout: str) -> dict[str, list[str]]:
    """The risky-first listing: regex -> the engines it blows up on, in the listing's order."""
    found, current = {}, None
    for line in stdout.split("risky first")[1].splitlines()[1:]:
        if line.startswith("  blow up: "):
            found[current] = [part.split()[0] for part in line.removeprefix("  blow up: ").split("; ")]
        elif match := re.match(r"([\w.-]+): .*  \[", line):
            current = match.group(1)
            found[current] = []
        elif not line.startswith("  "):
            break
    return found


def test_a_scan_in_three_shards_merges_into_the_unsplit_scans_listing_catalogue_and_verdicts(tmp_path, regex_tools):
    whole = stallbench("regex", *STUDY, "--out", str(tmp_path / "whole"), "--scan", str(TREE))
    assert whole.returncode == 0, whole.stderr
    (whole_run,) = (tmp_path / "whole").iterdir()
    shards_listed = {}
    for k in (1, 2, 3):
        shard = scan_shard(tmp_path / "shards", k, 3)
        assert f"shard {k}/3 of group tree: 1 of 3 regexes" in shard.stderr
        shards_listed.update(listed(shard.stdout))
    merged = stallbench("merge", str(tmp_path / "shards"), "--out", str(tmp_path / "merged"), "--no-report")
    assert merged.returncode == 0, merged.stderr
    run = tmp_path / "merged" / "tree"
    same = lambda found: {k: r["verdict"] for k, r in found.items()}
    # The merge keeps what each shard measured: its verdicts and listing are the shards' put together.
    measured = {}
    for part in (tmp_path / "shards").iterdir():
        if (part / "classification.csv").exists():
            measured.update(same(verdicts(part)))
    assert same(verdicts(run)) == measured and len(measured) == 6
    assert listed(merged.stdout) == shards_listed
    # Against the unsplit scan, measured at another time: the same regexes and engines, the same
    # verdict wherever both decided one. A curve left with fewer than three finished lengths on a
    # busy machine is `unknown` in one scan and decided in the other (seen: std on lib-parse-js-L7,
    # linear in the shards, unknown in the whole scan): that is the machine, not the merge.
    whole_verdicts, merged_verdicts = same(verdicts(whole_run)), same(verdicts(run))
    assert whole_verdicts.keys() == merged_verdicts.keys()
    decided = {k for k in whole_verdicts if "unknown" not in (whole_verdicts[k], merged_verdicts[k])}
    assert decided
    assert {k: whole_verdicts[k] for k in decided} == {k: merged_verdicts[k] for k in decided}
    assert listed(merged.stdout).keys() == listed(whole.stdout).keys()
    assert merged.stdout.split("risky first")[1].splitlines()[1].startswith("lib-parse-js-L4: lib/parse.js:4:16")
    assert [(p.name, p.regex, p.attack) for p in patterns.load(run / "catalogue.toml")] == \
           [(p.name, p.regex, p.attack) for p in patterns.load(whole_run / "catalogue.toml")]


def test_a_missing_shard_marks_the_merged_listing_incomplete_naming_it(tmp_path, regex_tools):
    for k in (1, 3):
        scan_shard(tmp_path / "shards", k, 3, "part")
    merged = stallbench("merge", str(tmp_path / "shards"), "--out", str(tmp_path / "merged"), "--no-report")
    assert merged.returncode == 1
    assert merged.stdout.startswith("INCOMPLETE (shard 2/3 missing): 1 of 3 regexes found are not in this listing")
    assert "group part is incomplete: shard 2/3 missing" in merged.stdout
    assert len(listed(merged.stdout)) == 2 and len({k[0] for k in verdicts(tmp_path / "merged" / "part")}) == 2


def test_a_shard_with_no_regex_of_its_own_still_writes_its_run(tmp_path, regex_tools):
    # Four shards of three regexes: one has none; the merge must find it all the same.
    for k in (1, 2, 3, 4):
        scan_shard(tmp_path / "shards", k, 4, "four")
    assert len(list((tmp_path / "shards").iterdir())) == 4
    merged = stallbench("merge", str(tmp_path / "shards"), "--out", str(tmp_path / "merged"), "--no-report")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert len(listed(merged.stdout)) == 3


def scan_part(index: int, engines: list[str], where: str) -> group_merge.Part:
    meta = {"run_id": f"r{index}", "shard": {"index": index, "count": 2, "group": "g"},
            "regex": {"engines": engines, "scan": {"regexes": []}}}
    return group_merge.Part(meta, [], where, None if "#" in where else Path(where) / "raw")


def test_the_merge_refuses_scan_shards_of_other_engines_or_read_from_the_store():
    with pytest.raises(UsageError, match=r"ran different engines: shard 1/2 \(r1, a\): std,re2; shard 2/2 \(r2, b\): std"):
        scan_merge.write([scan_part(1, ["std", "re2"], "a"), scan_part(2, ["std"], "b")], {}, Path("unused"), "g")
    with pytest.raises(UsageError, match="read from the store, which keeps none of a scan's triage.csv"):
        scan_merge.write([scan_part(1, ["std"], "a"), scan_part(2, ["std"], "store#r2")], {}, Path("unused"), "g")
