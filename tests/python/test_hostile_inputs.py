"""The one input rule, tried as a hostile user would: every undecodable, malformed or out-of-range
value or file, on every subcommand that takes one, is one line naming it and what is valid, exit 2,
no traceback, and nothing written. Run in-process (cli.main) so that a hundred cases stay cheap.
docs/reliability.md lists these classes with their outcomes."""
import os
import sqlite3

import pytest

from conftest import BUILD
from stallbench_lib import cli

FF = os.fsdecode(b"\xff")  # how Python hands over a byte that is not UTF-8 in an argument
ARABIC_ONE, FULLWIDTH_ONE, SUPERSCRIPT_TWO = "\u0661", "\uff11", "\u00b2"


def files(tmp_path) -> dict[str, str]:
    """Hostile files by name -> path."""
    made = {
        "scenario-not-utf8.json": b'{"name": "\xff", "module": "cjs", "program": []}',
        "scenario-not-json.json": b'{"name": "x",',
        "scenario-empty.json": b"",
        "scenario-nul.json": b'{"name": "x\x00"}',
        "scenario-array.json": b"[]",
        "scenario-arabic-digits.json": '{"name": "x", "module": "cjs", "program": [{"op": "busy", "ms": "\u0661"}]}'.encode(),
        "catalogue-not-utf8.toml": b'[[pattern]]\nname = "\xff"\n',
        "catalogue-not-toml.toml": b"[[pattern]\n",
        "catalogue-long-prefix.toml": b'[[pattern]]\nname = "p"\nregex = "a+"\npump = "a"\nsource = "t"\nprefix = "'
                                      + b"x" * 2_000_000 + b'"\n',
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    return {name: str(tmp_path / name) for name in made}


CASES = [
    # command line: undecodable bytes, anywhere
    (["run", "--set", f"pool={FF}"], "is not UTF-8"),
    (["run", "--set", f"po{FF}ol=1"], "is not UTF-8"),
    (["run", "--filter", FF], "is not UTF-8"),
    (["sweep-pool", "--mix", FF], "is not UTF-8"),
    (["sweep-pool", "--targets", f"read:{FF}"], "is not UTF-8"),
    (["regex", "--engines", FF], "is not UTF-8"),
    (["trace", FF], "is not UTF-8"),
    (["compare", FF, FF], "is not UTF-8"),
    # numbers: ASCII digits only, finite
    (["run", "--repetitions", ARABIC_ONE], "is not an integer"),
    (["run", "--repetitions", FULLWIDTH_ONE], "is not an integer"),
    (["run", "--repetitions", "1_0"], "is not an integer"),
    (["run", "--repetitions", " 3"], "is not an integer"),
    (["run", "--set", f"pool={ARABIC_ONE}"], "valid values are integers 1-1024"),
    (["sweep-pool", "--sizes", SUPERSCRIPT_TWO], "1-1024"),
    (["sweep-pool", "--duration", ARABIC_ONE], "is not an integer"),
    (["sweep-pool", "--repetitions", "1e3"], "is not an integer"),
    (["sweep-pool", "--targets", "read:0"], "above 0, at most 3600000"),
    (["sweep-pool", "--targets", f"read:{ARABIC_ONE}"], "above 0, at most 3600000"),
    (["sweep-pool", "--targets", "read:nan"], "above 0, at most 3600000"),
    (["regex", "--lengths", f"{ARABIC_ONE}0"], "out of range"),
    (["regex", "--budget-ms", FULLWIDTH_ONE], "is not an integer"),
    (["trace", "--runs", ARABIC_ONE], "is not an integer"),
    (["compare", "--alpha", "nan", "a", "b"], "is not a number"),
    (["compare", "--alpha", "inf", "a", "b"], "is not a number"),
    (["compare", "--min-effect", ARABIC_ONE, "a", "b"], "percentage"),
    (["history", "--change-point-alpha", "1_0"], "is not a number"),
    (["calibrate", "--min-effect", "infinity"], "percentage"),
    (["json", "--repetitions", ARABIC_ONE, "x.json"], "is not an integer"),
    # files
    (["trace", "{scenario-not-utf8.json}"], "ill-formed UTF-8"),
    (["trace", "{scenario-not-json.json}"], "not valid JSON"),
    (["trace", "{scenario-empty.json}"], "not valid JSON"),
    (["trace", "{scenario-nul.json}"], "not valid JSON"),
    (["trace", "{scenario-array.json}"], "must be an object"),
    (["trace", "{scenario-arabic-digits.json}"], "$.program[0].ms"),
    (["regex", "--patterns", "{catalogue-not-utf8.toml}"], "not UTF-8 text: byte 0xff"),
    (["regex", "--patterns", "{catalogue-not-toml.toml}"], "invalid TOML"),
    (["regex", "--patterns", "{catalogue-long-prefix.toml}"], "at most 4,096"),
    (["regex", "--patterns", "/nonexistent.toml"], "No such file"),
    # output places
    (["run", "--out", "{scenario-empty.json}"], "not a directory"),
    (["report", "/nonexistent-run"], "not a run directory"),
]


@pytest.mark.parametrize("args, words", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_one_line_exit_2_nothing_written(tmp_path, capsys, monkeypatch, args, words):
    monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD))
    given = files(tmp_path)
    out = tmp_path / "out"
    argv = [given[a[1:-1]] if a.startswith("{") else a for a in args]
    if argv[0] in ("run", "sweep-pool", "regex", "json") and "--out" not in argv:
        argv += ["--out", str(out)]
    if argv[0] in ("run", "sweep-pool", "regex", "trace", "json", "calibrate"):
        argv.insert(1, "--no-build")
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err
    assert not out.exists()


# Every command against the bad states its options can name: an --out that no folder can be made at
# (under a regular file, a name over the filesystem's 255 bytes) and, for the commands that read the
# history store before anything else, a store that is damaged (not SQLite, or cut short; the commands
# that only append to it at the end keep their run: test_hostile_states.py). Each is one line and exit
# 2 before any work. The arguments each command needs to get that far; a command with --out or
# --store missing here fails the completeness test.
NEEDS = {
    "ab": ["HEAD~1", "HEAD"], "bisect": ["--filter", "^tiny/", "HEAD~1", "HEAD"], "calibrate": [],
    "compare": ["20260101T000000Z-a", "20260101T000000Z-b"], "doctor": ["--app", "node app.js"],
    "export": ["--format", "bmf", "20260101T000000Z-a"], "history": [], "json": ["--input", "doc.json"],
    "merge": ["--group", "g"], "page": ["page.html"],
    "probe-cost": ["--app", "node app.js", "--url", "http://127.0.0.1:9/"], "regex": [], "run": [], "sweep-pool": [],
    "shards": ["--count", "2", "--durations-before", "now"], "store": ["list"],
}


def _options(name: str) -> set[str]:
    sub = cli.make_parser([name])._subparsers._group_actions[0].choices[name]
    return {o for a in sub._actions for o in a.option_strings}


def _states(tmp_path) -> dict[str, dict[str, str]]:
    (tmp_path / "file").write_text("x")
    (tmp_path / "garbage.sqlite").write_bytes(bytes(range(256)) * 32)
    good = sqlite3.connect(tmp_path / "cut.sqlite")
    good.executescript("BEGIN; CREATE TABLE runs (run_id TEXT PRIMARY KEY, meta TEXT);" +  # one commit: one fsync
                       "".join(f"INSERT INTO runs VALUES ('r{i}', '{'x' * 500}');" for i in range(200)) + "COMMIT;")
    good.close()
    cut = (tmp_path / "cut.sqlite").read_bytes()
    (tmp_path / "cut.sqlite").write_bytes(cut[:len(cut) // 2])
    return {"--out": {"under a file": str(tmp_path / "file" / "sub"), "a 300-byte name": str(tmp_path / ("n" * 300))},
            "--store": {"not SQLite": str(tmp_path / "garbage.sqlite"), "cut short": str(tmp_path / "cut.sqlite")}}


# (shards reads the store first too, and a store it cannot read is "no stored durations", one line: the
# declared timeouts serve: a fallback, not a refusal)
READS_THE_STORE_FIRST = {"compare", "history", "merge", "store"}
STATE_CASES = [(command, option, state) for command in NEEDS for option in ("--out", "--store")
               if option == "--out" or command in READS_THE_STORE_FIRST
               for state in {"--out": ("under a file", "a 300-byte name"), "--store": ("not SQLite", "cut short")}[option]]


def test_every_command_with_an_output_or_a_store_is_in_the_table():
    named = {m.NAME for m in cli._commands([])}
    assert {n for n in named if _options(n) & {"--out", "--store"}} == set(NEEDS)


@pytest.mark.parametrize("command, option, state", STATE_CASES, ids=[" ".join(c) for c in STATE_CASES])
def test_every_command_refuses_a_bad_state_in_one_line(tmp_path, capsys, monkeypatch, command, option, state):
    if option not in _options(command):
        pytest.skip(f"{command} has no {option}")
    monkeypatch.setenv("STALLBENCH_BUILD_DIR", str(BUILD))
    monkeypatch.setenv("STALLBENCH_NODE", "none")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "doc.json").write_text("[1]")
    argv = [command, *NEEDS[command], option, _states(tmp_path)[option][state]]
    if "--no-build" in _options(command):
        argv.insert(1, "--no-build")
    try:
        code = cli.main(argv)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err


def test_a_failure_no_check_foresaw_is_one_line_exit_70_and_its_traceback_kept(tmp_path, capsys, monkeypatch):
    """A bug is still not a traceback on a user's terminal: one line naming it and the file that keeps
    the traceback for the report."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(cli.tempfile, "tempdir", None)
    from stallbench_lib.commands import list as list_command

    def broken(args):
        raise KeyError("a bug")

    monkeypatch.setattr(list_command, "run", broken)
    assert cli.main(["list"]) == 70
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("stallbench: internal error: KeyError: 'a bug'")
    (kept,) = tmp_path.glob("stallbench-error-*.txt")
    assert str(kept) in line and "Traceback" in kept.read_text() and "a bug" in kept.read_text()
