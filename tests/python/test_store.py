"""The history store against real databases: SQLite (a file here), and PostgreSQL from Debian's
packages, started for the test as an unprivileged user and stopped at the end."""
import os
import signal
import sqlite3
import subprocess
import time

from conftest import ROOT
from postgres_server import postgres_url  # noqa: F401 (a fixture)
from stallbench_lib.parameters import Params
from stallbench_lib import children, cli
from stallbench_lib.tidy import Row, write_csv
from stallbench_lib.tracking import store
from synthetic_runs import MACHINE, noisy, write_run


def _nights(root, count, centre=100.0):
    return [write_run(root / f"2026010{n:02d}", {("n=1", "time_ms"): noisy(centre, 5, 0.02, n)},
                      commit=f"{n:02x}" * 20, started=f"2026-01-{n + 1:02d}T00:00:00+00:00") for n in range(count)]


def _round_trip(location, tmp_path):
    """Import twice (the second changes nothing), read back what was written, history from the store."""
    runs = _nights(tmp_path / "results" / "runs", 4)
    assert cli.main(["store", "import", str(tmp_path / "results"), "--store", location]) == 0
    assert cli.main(["store", "import", str(runs[0]), "--store", location]) == 0
    with store.Store(location) as db:
        listed = db.listing(MACHINE["fingerprint"])
        assert [r.run_id for r in listed] == [r.name for r in runs] and all(r.kind == "run" for r in listed)
        back = db.history(MACHINE["fingerprint"])
    original = (runs[2] / "results.csv").read_text().splitlines()
    values = [float(line.split(",")[6]) for line in original[1:]]
    assert back[2].samples[("fam", "bench", "n=1", "time_ms")].values == values
    assert back[2].meta["git"]["commit"] == "02" * 20


def test_sqlite_round_trip_and_history(tmp_path, capsys):
    location = str(tmp_path / "history.sqlite")
    _round_trip(location, tmp_path)
    assert "0 runs added, 1 already there" in capsys.readouterr().out
    out = tmp_path / "page"
    assert cli.main(["history", "--store", location, "--fingerprint", MACHINE["fingerprint"], "--out", str(out)]) == 0
    assert (out / "index.html").exists()


def _big_run(path, rows):
    path.mkdir(parents=True)
    write_csv(path / "results.csv", [Row(path.name, "fam", "bench", Params({"n": i // 50}), i % 50, "time_ms", float(i), "ms",
                                         "ok", "") for i in range(rows)])
    (path / "meta.json").write_text('{"run_id": "%s", "complete": true, "machine": {"fingerprint": "%s"}}'
                                    % (path.name, MACHINE["fingerprint"]))
    return path


def test_killed_during_append_leaves_the_store_as_it_was(tmp_path):
    location = tmp_path / "history.sqlite"
    _nights(tmp_path / "before", 2)
    assert cli.main(["store", "import", str(tmp_path / "before"), "--store", str(location)]) == 0
    journal = location.with_name(location.name + "-journal")
    rows = 150_000
    for _attempt in range(3):  # a bigger run if the append finished before the kill landed
        big = _big_run(tmp_path / f"big{rows}", rows)
        proc = children.start([str(ROOT / "scripts" / "stallbench"), "store", "import", str(big), "--store",
                               str(location)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not journal.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        children.forget(proc)
        if proc.returncode == -signal.SIGKILL:
            break
        rows *= 2
    assert proc.returncode == -signal.SIGKILL, "the import finished before it could be killed"
    with store.Store(location) as db:
        assert [r.run_id for r in db.listing()] == ["2026010" + "00", "2026010" + "01"]
    with sqlite3.connect(location) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert raw.execute("SELECT COUNT(*) FROM rows WHERE run_id = ?", (big.name,)).fetchone() == (0,)
    assert cli.main(["store", "import", str(big), "--store", str(location)]) == 0  # and it can be stored after


def test_bad_store_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert cli.main(["store", "list", "--store", str(tmp_path / "file" / "db.sqlite")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot open the SQLite store" in err


def test_postgresql_round_trip(tmp_path, postgres_url):
    _round_trip(postgres_url, tmp_path)


def test_compare_reads_runs_from_the_store_by_id(tmp_path, capsys):
    location = str(tmp_path / "history.sqlite")
    runs = _nights(tmp_path / "runs", 2)
    assert cli.main(["store", "import", str(tmp_path / "runs"), "--store", location]) == 0
    out = tmp_path / "cmp"
    assert cli.main(["compare", runs[0].name, runs[1].name, "--store", location, "--out", str(out)]) == 0
    assert runs[1].name in (out / "compare.md").read_text()
    capsys.readouterr()
    assert cli.main(["compare", "nope", runs[1].name, "--store", location, "--out", str(out / "x")]) == 2
    assert "not a run directory, a results.csv or a run id" in capsys.readouterr().err
