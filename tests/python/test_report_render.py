"""The report page: a table of contents with anchors, per-cell values as CSV rather than inline
tables, numbers right-aligned and text left-aligned; a broken family module, or one that reads a
benchmark or metric the run's binaries did not declare, reported as an error rather than an empty
section; and every family module reading only what today's binaries declare."""
import re
import sys
from pathlib import Path

import pytest

from conftest import BUILD
from stallbench_lib import build, catalogue
from stallbench_lib.rendering import render
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


def family_module(tmp_path, monkeypatch, source: str) -> None:
    """families/fam/section.py with `source`, found before the real families."""
    folder = tmp_path / "pkg" / "stallbench_lib" / "families"
    (folder / "fam").mkdir(parents=True)
    (folder / "fam" / "__init__.py").write_text("")
    (folder / "fam" / "section.py").write_text(source)
    import stallbench_lib.families as families
    monkeypatch.setattr(families, "__path__", [str(folder), *families.__path__])
    for name in ("stallbench_lib.families.fam", "stallbench_lib.families.fam.section"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_a_family_module_that_does_not_import_is_an_error(run_dir, tmp_path, monkeypatch):
    family_module(tmp_path, monkeypatch, "import no_such_module_anywhere\n")
    with pytest.raises(render.ReportError, match="families/fam/section.py does not import: ModuleNotFoundError"):
        render.render(run_dir, tmp_path / "report")


SECTION = "def sections(context):\n    return 'the section of fam'\n"


@pytest.mark.parametrize("consumes, message", [
    ("{'bench': ('time_ms', 'gone_ms')}", "families/fam/section.py reads metric gone_ms of fam/bench, which this run's"),
    ("{'renamed': ('time_ms',)}", r"families/fam/section.py reads benchmark fam/renamed, .* \(it declares fam/bench\)"),
    (None, "families/fam/section.py does not declare what it reads"),
])
def test_a_section_reading_what_the_run_did_not_declare_is_an_error(run_dir, tmp_path, monkeypatch, consumes, message):
    family_module(tmp_path, monkeypatch, (f"CONSUMES = {consumes}\n" if consumes else "") + SECTION)
    with pytest.raises(render.ReportError, match=message):
        render.render(run_dir, tmp_path / "report")


def test_a_benchmark_added_later_may_be_missing_from_an_older_run(run_dir, tmp_path, monkeypatch):
    """A run made before a benchmark existed still renders; its metrics are checked once it is there."""
    family_module(tmp_path, monkeypatch, "CONSUMES = {'bench': ('time_ms',), 'newer': ('agree_pct',)}\n"
                                          "ADDED_LATER = ('newer',)\n" + SECTION)
    assert "the section of fam" in (render.render(run_dir, tmp_path / "report") / "index.html").read_text()


def test_a_section_reading_what_the_run_declared_renders(run_dir, tmp_path, monkeypatch):
    family_module(tmp_path, monkeypatch, "CONSUMES = {'bench': ('time_ms', 'rate_mb_s')}\n" + SECTION)
    out = render.render(run_dir, tmp_path / "report")
    assert "the section of fam" in (out / "index.html").read_text()


def test_a_run_whose_binaries_declared_nothing_of_the_family_is_not_checked(tmp_path, monkeypatch):
    """sweep-pool --app: its benchmark is declared in Python, not by a bench binary."""
    run = write_run(tmp_path / "20260101T000000Z-22222222", {("n=1", "time_ms"): [1.0]},
                    meta_extra={"benchmarks": {}})
    family_module(tmp_path, monkeypatch, "CONSUMES = {'open-loop': ('latency_p50_ms',)}\n" + SECTION)
    assert "the section of fam" in (render.render(run, tmp_path / "report") / "index.html").read_text()


def test_a_parameter_renamed_in_cpp_stops_the_report_in_one_line():
    meta = {"metrics": {"fam/bench": {"time_ms": {}}},
            "benchmarks": {"fam/bench": {"params": {"size": {}, "mode": {}}, "constants": {}}}}
    render.check_consumed("families/fam/section.py", {"bench": ("time_ms",)}, "fam", meta, parameters={"bench": ("size",)})
    with pytest.raises(render.ReportError, match=r"families/fam/section.py reads parameter pool of fam/bench, which this run's "
                                                 r"meta.json does not declare \(it declares mode, size\)"):
        render.check_consumed("families/fam/section.py", {"bench": ("time_ms",)}, "fam", meta, parameters={"bench": ("pool",)})


# A parameter read by name from a cell's parameters: p["name"], params['name'], row.params["name"].
_READ_BY_NAME = re.compile(r"""(?:\bp|\bparams)\[(["'])([a-z_]+)\1\]""")


def test_every_parameter_a_family_module_reads_by_name_is_declared():
    """A report section spells C++ parameter names in its lambdas; each must be in its PARAMETERS
    (checked against the binaries above), or a subcase key the harness adds (SUBCASE_KEYS), so a
    parameter renamed in C++ is one line from the render, never a KeyError. The parts of a section
    in files of their own (families/<family>/*_section.py) count as its own code."""
    import stallbench_lib.families as families
    checked = 0
    for name in families.names():
        module = families.find(name, "section")
        if module is None:
            continue
        folder = Path(module.__file__).parent
        read = {m.group(2) for path in [folder / "section.py", *folder.glob("*_section.py")]
                for m in _READ_BY_NAME.finditer(path.read_text())}
        declared = {n for names in {**getattr(module, "PARAMETERS", {})}.values() for n in names}
        declared |= {n for names in getattr(module, "SUBCASE_KEYS", {}).values() for n in names}
        assert read <= declared, f"families/{name}/section.py reads {sorted(read - declared)} without declaring them"
        checked += bool(read)
    assert checked >= 7


def test_constants_and_engines_come_from_the_declarations(tmp_path):
    meta = {"benchmarks": {"fam/bench": {"constants": {"budget_ms": 250.0},
                                         "params": {"engine": {"choices": ["re2", "node"], "node_values": ["node"]}}}},
            "nodes": [{"line": "26"}, {"line": "system"}]}
    run = write_run(tmp_path / "20260101T000000Z-33333333", {("n=1", "time_ms"): [1.0]}, meta_extra=meta)
    context = render.Context(render.rundir.load(run), [], tmp_path, "fam")
    assert context.constant("bench", "budget_ms") == 250.0
    assert context.choices("bench", "engine") == ["re2", "node@26", "node@system"]
    with pytest.raises(render.ReportError, match="does not declare constant limit_ms of fam/bench"):
        context.constant("bench", "limit_ms")


def test_every_family_module_reads_what_todays_binaries_declare():
    benchmarks = catalogue.all_benchmarks(catalogue.load(build.bench_binaries(BUILD)))
    meta = {"metrics": catalogue.metric_declarations(benchmarks),
            "benchmarks": catalogue.benchmark_declarations(benchmarks)}
    import stallbench_lib.families as families
    checked = []
    for name in families.names():
        module = families.find(name, "section")
        if module is None:
            continue
        family = name.replace("_", "-")
        render.check_consumed(f"families/{name}/section.py", getattr(module, "CONSUMES", None), family, meta,
                              parameters=getattr(module, "PARAMETERS", {}))
        assert any(key.startswith(f"{family}/") for key in meta["metrics"]), family
        checked.append(family)
    assert {"pool", "regex", "json", "report", "starvation", "pool-sweep", "browser", "doctor"} <= set(checked)


@pytest.mark.parametrize("which", ["the first cell of every benchmark", "every cell"])
def test_a_run_whose_cells_failed_still_renders_every_section(smoke_run, tmp_path, which):
    """A failed cell has rows with no value (a pool cell on a machine that cannot look a name up, a
    slow-DNS cell that cannot make its resolver): every family's section is still drawn, without the
    failed points, and the report is written; never a traceback."""
    import dataclasses
    import shutil
    from stallbench_lib.tidy import read_csv, write_csv
    _, run = smoke_run
    copy = shutil.copytree(run, tmp_path / run.name)
    rows = read_csv(copy / "results.csv")
    first = {}
    for r in rows:
        first.setdefault((r.family, r.benchmark), r.params)

    def fails(r):
        return which == "every cell" or first[(r.family, r.benchmark)] == r.params
    write_csv(copy / "results.csv", [dataclasses.replace(r, value=None, status="error", detail="failed here")
                                     if fails(r) else r for r in rows])
    page = (render.render(copy, tmp_path / "report") / "index.html").read_text()
    for family in {r.family for r in rows}:
        assert f'id="family-{family}"' in page, family
