"""The report page: a table of contents with anchors, per-cell values as CSV rather than inline
tables, numbers right-aligned and text left-aligned, and a broken family module reported as an
error rather than an empty section."""
import sys

import pytest

from stallbench_lib.report import render
from synthetic_runs import write_run


@pytest.fixture
def run_dir(tmp_path):
    return write_run(tmp_path / "20260101T000000Z-11111111",
                     {("n=1", "time_ms"): [1.0, 2.0, 3.0], ("n=2", "rate_mb_s"): [10.0, 11.0]})


def test_contents_anchors_and_values_csv(run_dir, tmp_path):
    out = render.render(run_dir, tmp_path / "report")
    page = (out / "index.html").read_text()
    assert 'class="toc"' in page and 'href="#family-fam"' in page and 'id="family-fam"' in page
    assert "(#family-fam)" in (out / "report.md").read_text()
    values = (out / "values-fam.csv").read_text().splitlines()
    assert values[0] == "benchmark,params,metric,unit,median,min,max,n,status"
    assert "bench,n=1,time_ms,ms,2.0,1.0,3.0,3,ok" in values
    # fam has no report module: its table is inline, collapsed, with numbers right-aligned.
    assert "<details" in page and '<td class="num">2.00</td>' in page and "<td>bench</td>" in page


def test_a_family_module_that_does_not_import_is_an_error(run_dir, tmp_path, monkeypatch):
    broken = tmp_path / "pkg" / "stallbench_lib" / "families"
    broken.mkdir(parents=True)
    (broken / "fam.py").write_text("import no_such_module_anywhere\n")
    import stallbench_lib.families as families
    monkeypatch.setattr(families, "__path__", [str(broken), *families.__path__])
    sys.modules.pop("stallbench_lib.families.fam", None)
    with pytest.raises(render.ReportError, match="families/fam.py does not import: ModuleNotFoundError"):
        render.render(run_dir, tmp_path / "report")
