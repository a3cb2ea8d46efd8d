"""docs/adding-a-benchmark.md's worked example, end to end: a benchmark with a per-process parameter
(tests/cpp/tiny_pool_bench.cc, family tiny-pool) goes through plan, run, results.csv and report with
no Python written for it. The orchestrator starts one process per pool size from the declaration
alone; the benchmark reads its pool size from the cell. Then the report section the guide writes
for it (its step 4, copied from the guide's text) is put in a family folder of its own and renders
that run."""
import json
import re
import sys

from conftest import BUILD, ROOT, stallbench_command
from stallbench_lib.rendering import render
from stallbench_lib.tidy import read_csv, validate_row

GUIDE = ROOT / "docs" / "adding-a-benchmark.md"


def documented_section() -> str:
    """The Python block that follows the guide's `families/tiny_pool/section.py`, unindented."""
    text = GUIDE.read_text()
    after = text[text.index("`scripts/stallbench_lib/families/tiny_pool/section.py`"):]
    block = re.search(r"```python\n(.*?)```", after, re.S).group(1)
    return "\n".join(line[5:] if line.startswith("     ") else line.strip() for line in block.splitlines()) + "\n"


def _build_with_the_added_benchmark(path):
    """A build tree whose only bench binary is the fixture, as the orchestrator finds families."""
    (path / "benches").mkdir(parents=True)
    (path / "benches" / "bench_tiny-pool").symlink_to(BUILD / "tests" / "tiny_pool_bench")
    return path


def test_an_added_benchmark_with_a_per_process_parameter_runs_through_the_pipeline(tmp_path, monkeypatch):
    build = _build_with_the_added_benchmark(tmp_path / "build")
    listed = stallbench_command("list", "--no-build", env={"STALLBENCH_BUILD_DIR": str(build)})
    assert "tiny-pool/spread" in listed.stdout and "[one process per value, exported as UV_THREADPOOL_SIZE]" in listed.stdout

    out = tmp_path / "runs"
    result = stallbench_command("run", "--profile", "smoke", "--repetitions", "2", "--no-build", "--node", "none",
                                "--out", str(out), env={"STALLBENCH_BUILD_DIR": str(build)})
    assert result.returncode == 0, result.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]

    rows = read_csv(run_dir / "results.csv")
    assert [p for r in rows for p in validate_row(r)] == [] and {r.status for r in rows} == {"ok"}
    assert {str(r.params) for r in rows} == {"jobs=4;n=1000000;pool=1", "jobs=4;n=1000000;pool=2"}
    for pool in ("1", "2"):
        mine = [r for r in rows if r.params["pool"] == pool]
        assert {r.repetition for r in mine} == {0, 1}
        assert len([r for r in mine if r.metric == "job_done_ms" and r.repetition == 0]) == 4  # one row per job
        # The value reached libuv: never more jobs at once than the pool size (one thread: exactly one).
        assert {r.value for r in mine if r.metric == "most_running"} <= {float(n) for n in range(1, int(pool) + 1)}

    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["per_process"] == {"pool": ["1", "2"]}
    assert len(list((run_dir / "raw").glob("*-tiny-pool-spread-*.json"))) == 2  # one process per pool size
    page = (run_dir / "report" / "index.html").read_text()
    assert "tiny-pool" in page and "most_running" in page  # reported before it has plots of its own

    # The guide's section, in the family's own folder, found before the real families.
    families = tmp_path / "pkg" / "stallbench_lib" / "families"
    (families / "tiny_pool").mkdir(parents=True)
    (families / "tiny_pool" / "__init__.py").write_text("")
    (families / "tiny_pool" / "section.py").write_text(documented_section())
    import stallbench_lib.families as real
    monkeypatch.setattr(real, "__path__", [str(families), *real.__path__])
    for name in ("stallbench_lib.families.tiny_pool", "stallbench_lib.families.tiny_pool.section"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    report = (render.render(run_dir, tmp_path / "report") / "report.md").read_text()
    assert "Medians per cell" in report
    assert re.search(r"\| 4 \| 1 \| [\d.]+ \| 1 \|", report) and re.search(r"\| 4 \| 2 \| [\d.]+ \| [12] \|", report)
