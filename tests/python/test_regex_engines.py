"""docs/adding-an-engine.md's worked example, the python engine (workloads/regex/programs/python/),
through the whole pipeline: the engine table the bench declares, the answers check, the rows, the
classification, the matrix and meta.json. Skipped, with one line, when the build has no python
engine."""
import csv
import json

import pytest

from conftest import BUILD, stallbench
from stallbench_lib.catalogue import describe
from stallbench_lib.families.regex.engines import Engines


def test_the_worked_example_engine_is_declared_measured_and_classified(tmp_path):
    table = Engines.from_family(describe(BUILD / "benches" / "bench_regex"))
    (row,) = [r for r in table.rows if r["name"] == "python"]
    if not row["available"]:
        pytest.skip(f"engine python is not in this build (install {row['package']})")
    assert (row["language"], row["runs_in"], row["kind"], row["flags"]) == ("Python", "program", "backtracking", "imsugy")
    catalogue = tmp_path / "p.toml"
    catalogue.write_text('[[pattern]]\nname = "nested-plus"\nregex = "^(a+)+$"\nsafe = "^a+$"\npump = "a"\n'
                         'suffix = "!"\nlengths = [12, 14, 16, 18, 20]\nsafe_lengths = [12, 1024, 65536]\nsource = "test"\n')
    out = tmp_path / "out"
    result = stallbench("regex", "--no-build", "--no-throughput", "--no-report", "--patterns", str(catalogue),
                        "--engines", "python,re2", "--node", "none", "--out", str(out))
    assert result.returncode == 0, result.stderr
    (run_dir,) = out.iterdir()
    with open(run_dir / "classification.csv") as f:
        found = {(r["pattern"], r["engine"]): r["verdict"] for r in csv.DictReader(f)}
    assert found[("nested-plus", "python")] == "exponential" and found[("nested-plus", "re2")] == "linear"
    assert found[("nested-plus.safe", "python")] == "linear"
    assert "python" in result.stdout.splitlines()[0]  # a column of the matrix
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["versions"]["python-re"].startswith("Python 3.")
    assert any(r["name"] == "python" for r in meta["tables"]["regex/engines"])
    assert meta["regex"]["sample_check"]["nested-plus"]["status"] == "ok"
