"""Tables and row grouping are written once: rendering/table.py writes every Markdown table the command
produces (report sections, compare, ab, history, calibration, store list), rendering/grouping.py files
tidy rows by their parameters for every report section, and `compare` and `ab` print one verdict
table (tracking/verdict_table.py). A module that joins `|` into a table row itself, or files rows
into nested dicts by their parsed parameters itself, fails here, naming the place."""
import ast
from pathlib import Path

import pytest

from conftest import ROOT
from stallbench_lib.rendering import grouping, table
from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row
from stallbench_lib.tracking import ab_report, comparison, verdict_table

LIB = ROOT / "scripts" / "stallbench_lib"
TABLE_HELPER = LIB / "rendering" / "table.py"
GROUPING_HELPER = LIB / "rendering" / "grouping.py"
# The report's modules: every section, the renderer, and the tracking pages.
REPORT_PACKAGES = ("families", "rendering", "tracking")


def _where(path: Path, node) -> str:
    return f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{node.lineno}"


def _modules(*packages):
    roots = [LIB / p for p in packages] if packages else [LIB]
    assert all(root.is_dir() for root in roots), roots  # a renamed package must not pass unread
    return sorted(f for root in roots for f in root.rglob("*.py"))


def _docstrings(tree) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _table_syntax(text: str) -> bool:
    """A piece of a Markdown table row: a separator, or a row's opening or closing pipe."""
    return "|---" in text or "---|" in text or text.startswith("| ") or text.rstrip("\n").endswith(" |")


def hand_built_tables(path: Path) -> list[str]:
    """file:line of every string (docstrings aside) that spells table syntax."""
    tree = ast.parse(path.read_text(), str(path))
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if _table_syntax(node.value):
                found.append(_where(path, node))
    return found


def _files_into_nested_dicts(body) -> bool:
    """`d[a][b] = x`, `d.setdefault(a, ...)[b] = x` or `d.setdefault(a, ...).append/setdefault(...)`."""
    for n in ast.walk(body):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) and (
                isinstance(t.value, ast.Subscript) or (isinstance(t.value, ast.Call) and isinstance(t.value.func, ast.Attribute)
                                                       and t.value.func.attr == "setdefault")) for t in n.targets):
            return True
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "setdefault", "add")
                and isinstance(n.func.value, ast.Call) and isinstance(n.func.value.func, ast.Attribute)
                and n.func.value.func.attr == "setdefault"):
            return True
    return False


def _by_name(n: ast.AST) -> bool:
    return isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)


def _reads_params(loop: ast.For) -> bool:
    """Whether a loop reads parameters by name: r.params["x"], or p["x"] where it iterates over .params."""
    walked = list(ast.walk(ast.Module(body=loop.body, type_ignores=[])))
    if any(_by_name(n) and isinstance(n.value, ast.Attribute) and n.value.attr == "params" for n in walked):
        return True
    over_params = any(isinstance(n, ast.Attribute) and n.attr == "params" for n in ast.walk(loop.iter))
    target = loop.target.id if isinstance(loop.target, ast.Name) else None
    return over_params and any(_by_name(n) and isinstance(n.value, ast.Name) and n.value.id == target for n in walked)


def hand_grouped_rows(path: Path) -> list[str]:
    """file:line of every loop that reads rows' params and files the rows under keys read from them."""
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.For):
            body = ast.Module(body=node.body, type_ignores=[])
            if _reads_params(node) and _files_into_nested_dicts(body):
                found.append(_where(path, node))
    return found


def test_no_module_but_the_table_helper_writes_table_syntax():
    found = [place for f in _modules() if f != TABLE_HELPER for place in hand_built_tables(f)]
    assert found == [], "tables built by hand (use rendering/table.py): " + ", ".join(found)


def test_no_report_module_but_the_grouping_helper_files_rows_by_their_params():
    found = [place for f in _modules(*REPORT_PACKAGES) if f != GROUPING_HELPER for place in hand_grouped_rows(f)]
    assert found == [], "rows grouped by hand (use rendering/grouping.py): " + ", ".join(found)


HAND_BUILT = '''
def rows(xs):
    lines = ["| a | b |", "|---|---|"]
    lines += [f"| {x} | {x * 2} |" for x in xs]
    return "\\n".join(lines)
'''

HAND_GROUPED = '''
def cells(rows):
    grouped = {}
    for params in dict.fromkeys(r.params for r in rows):
        grouped.setdefault(params["shape"], {})[params["parser"]] = params
    return grouped
'''


@pytest.mark.parametrize("source, check, lines", [(HAND_BUILT, hand_built_tables, [3, 4]),
                                                   (HAND_GROUPED, hand_grouped_rows, [4])])
def test_the_checks_catch_the_idioms_they_forbid(tmp_path, source, check, lines):
    path = tmp_path / "hand_made.py"
    path.write_text(source)
    assert sorted({int(place.rsplit(":", 1)[1]) for place in check(path)}) == lines


def test_markdown_table_columns_units_alignment_and_escapes():
    cols = ["name", table.number("time", "ms"), table.Column("note", align="center")]
    text = table.markdown(cols, [["a", 1.5, "x|y"], ["b", None, "already \\| escaped"]])
    assert text.splitlines() == ["| name | time ms | note |", "|---|---:|:---:|", "| a | 1.5 | x\\|y |",
                                 "| b | – | already \\| escaped |"]
    assert table.markdown(cols, [], empty="nothing ran").splitlines()[2].split("|")[1:3] == [" – ", " nothing ran "]
    with pytest.raises(ValueError, match="a row of 2 cells under 3 columns"):
        table.markdown(cols, [["a", 1]])
    with pytest.raises(ValueError, match="align 'middle'"):
        table.Column("x", align="middle")


def test_text_table_pads_to_the_widest_cell_and_right_aligns_figures():
    lines = table.text(["class", table.number("pool")], [["fs", 1], ["pbkdf2", 16]]).splitlines()
    assert lines == ["class   pool", "fs         1", "pbkdf2    16"]


P = Params.parse


def _row(params, metric, value, repetition=0, status="ok", benchmark="b"):
    return Row("run", "fam", benchmark, Params.parse(params), repetition, metric, value, "ms", status, "")


def test_grouping_files_cells_and_values_in_first_seen_order():
    rows = [_row("parser=z;shape=s", "m", 1), _row("parser=a;shape=s", "m", 2), _row("parser=z;shape=t", "m", 3),
            _row("parser=z;shape=s", "m", 4, repetition=1), _row("parser=a;shape=s", "m", None, status="timeout"),
            _row("parser=q;shape=s", "m", 5, benchmark="other")]
    assert grouping.cells(rows, lambda p: p["shape"], lambda p: p["parser"], benchmark="b") == {
        "s": {"z": P("parser=z;shape=s"), "a": P("parser=a;shape=s")}, "t": {"z": P("parser=z;shape=t")}}
    assert list(grouping.cells(rows, lambda p: p["shape"], lambda p: p["parser"], benchmark="b")["s"]) == ["z", "a"]
    assert grouping.values(rows, lambda p: p["parser"], benchmark="b") == {"z": {"m": [1, 3, 4]}, "a": {"m": [2]}}
    assert grouping.values(rows, lambda p: p["parser"], benchmark="b", per_repetition=True)[("z", 1)] == {"m": [4]}
    assert grouping.values(rows, lambda p: None if p["shape"] == "t" else p["parser"], metrics=("m",)) == {
        "z": {"m": [1, 4]}, "a": {"m": [2]}, "q": {"m": [5]}}


def test_compare_and_ab_print_the_one_verdict_table():
    """The two commands' tables differ only in the columns their tests have; each column is spelled once."""
    shared = [n for n in comparison.COLUMNS if n in ab_report.COLUMNS]
    assert shared == ["verdict", "benchmark", "params", "metric", "base", "current", "change", "p", "q", "detectable",
                      "min effect", "note"]
    assert set(comparison.COLUMNS) | set(ab_report.COLUMNS) <= set(verdict_table.COLUMNS)
    empty = verdict_table.markdown([], ab_report.COLUMNS, ab_report.SPREAD_DIGITS).splitlines()
    assert len(empty) == 3 and "no cell and metric in common" in empty[2]
