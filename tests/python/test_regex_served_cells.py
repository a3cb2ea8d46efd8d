"""The regex study's cells in one long-lived process per engine (`--stallbench-serve`,
served_cells.py): a bench binary runs the cells it is sent one after another, each with its
own records; the study starts a process per engine and another only after it killed one (a match
past its budget), and that cell is still a timeout row."""
import csv
import os
import subprocess

from conftest import BUILD
from stallbench_lib.convert import read_record
from test_regex_found import regex_run, verdicts

TINY = BUILD / "tests" / "tiny_bench"


def test_a_served_binary_runs_each_cell_it_is_sent_with_its_own_records():
    read_end, write_end = os.pipe()
    done = subprocess.run([str(TINY), "--stallbench-serve", f"--stallbench-records-fd={write_end}"], pass_fds=(write_end,),
                          input="2 sum.n=1000\n1 sum.n=0\n1 nothing=1\n1 sum.n=5000\n", text=True, capture_output=True,
                          timeout=60)
    os.close(write_end)
    with os.fdopen(read_end) as records:
        found = [read_record(line) for line in records]
    assert done.returncode == 0, done.stderr
    ends = [r for r in found if r.event == "end"]
    assert [(r.rep, r.status) for r in ends] == [(0, "ok"), (1, "ok"), (0, "error"), (0, "error"), (0, "ok")]
    assert [dict((v.metric, v.value) for v in r.values).get("n_done") for r in ends] == [1000, 1000, None, None, 5000]
    assert "not one cell" in ends[3].detail
    assert [r.event for r in found].count("start") == 5  # every cell's repetitions announced as they start


def test_a_study_starts_one_process_per_engine_and_another_only_after_a_kill(tmp_path, regex_tools):
    # std::regex has no guard: the nested repeat's curve ends over the budget, its process killed, and
    # the second pattern's cells need a process again; RE2 never overruns: one process for all its cells.
    result, run_dir = regex_run(tmp_path, "--pattern", "^(a+)+$", "--pattern", "^a+$", "--engines", "std,re2",
                                "--node", "none", "--lengths", "8,14,20,26,32", "--budget-ms", "300")
    assert result.returncode == 0, result.stderr
    raw = run_dir / "raw"
    starts = {e: (raw / f"served-{e}.log").read_text().count("$ ") for e in ("std", "re2")}
    with open(run_dir / "results.csv") as f:
        cells = {(r["params"], r["status"]) for r in csv.DictReader(f) if r["benchmark"] == "match"}
    killed = sum(1 for params, status in cells if status == "timeout" and "engine=std" in params)
    logs = [p.read_text() for p in raw.glob("*.log")]
    again = sum(log.count("run again") for log in logs if "match.engine=std " in log)  # the machine's load
    assert verdicts(run_dir)[("pattern-1", "std")]["stop_status"] == "timeout"
    assert starts["std"] == 1 + killed + again and killed >= 1
    assert starts["re2"] == 1 and sum(1 for params, _ in cells if "engine=re2" in params) >= 5
