"""The figures of cells that README and docs give for a run match the grids of today's build.

A figure of a run's cells is written after a marker naming the run's options, invisible in the
rendered page: `<!-- cells: --profile smoke --filter ^pool/ -->45 cells`. The count is checked
against the plan the command makes of those options from the bench binaries' own declarations
(what `list --json` prints), so a grid that grows makes the page's figure fail here
instead of going stale. A duration given with such a figure is a measurement: its paragraph must say
when (a date) and under what load. A count of cells near the word "profile" without a marker fails
too: it is a run's figure that nobody would check; one that is not a plan of today's grids says so
(`<!-- cells: not today's plan: WHY -->`, `<!-- cells: not a plan: WHY -->`). Commands in code
blocks are examples, not figures."""
import argparse
import re
import shlex
from pathlib import Path

import pytest

from conftest import BUILD, ROOT
from stallbench_lib import build, catalogue, node as nodejs
from stallbench_lib.plan import make_plan, parse_sets
from stallbench_lib.profiles import DEFAULT, PROFILES

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKED = re.compile(r"<!-- cells: (?P<args>[^>]*?) -->\s*(?P<count>[\d,]+) cells(?P<rest>[^.;)]*)")
COUNT = re.compile(r"\b(?P<count>\d[\d,]*) cells\b")
DURATION = re.compile(r"\b(in|took) \d+(\.\d+)? ?(s|min)\b")  # "12 cells in 4 min 3 s": a run's time
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
EXEMPT = ("not today's plan:", "not a plan:")


def _paragraph(text: str, at: int) -> str:
    start = text.rfind("\n\n", 0, at) + 2
    end = text.find("\n\n", at)
    return text[start:end if end >= 0 else len(text)]


def _prose(page: Path) -> str:
    """The page with its fenced code blocks blanked out (the same length, so positions hold)."""
    return re.sub(r"```.*?```", lambda m: re.sub(r"[^\n]", " ", m.group(0)), page.read_text(encoding="utf-8"), flags=re.S)


def figures():
    for page in PAGES:
        text = _prose(page)
        for m in MARKED.finditer(text):
            if m["args"].startswith(EXEMPT):
                continue
            line = text.count("\n", 0, m.start()) + 1
            yield pytest.param(page, m, text, id=f"{page.relative_to(ROOT)}:{line}")


def _plan_size(args: list[str]) -> int:
    """The cells `run ARGS` would plan: the command's own planning over the bench binaries'
    declarations, with the Node lines named (each must be: the lines of a machine are its own), none
    of them installed for it."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default=DEFAULT)
    parser.add_argument("--filter")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--node", required=True)
    given = parser.parse_args(args)
    nodes = tuple(nodejs.Node(line, "/pinned/not/installed", f"v{nodejs.pinned()[line]}", "", "")
                  for line in nodejs.parse_lines(given.node))
    families = catalogue.load(build.bench_binaries(BUILD))
    return len(make_plan(families, PROFILES[given.profile], given.filter, parse_sets(given.set), nodes))


def _missing_browsers() -> list[str]:
    binary = build.bench_binaries(BUILD).get("browser")
    rows = catalogue.describe(binary).tables.get("browsers", []) if binary else []
    return [row["name"] for row in rows if row.get("missing")] if binary else ["every browser (no bench_browser)"]


@pytest.mark.parametrize("page,mark,text", list(figures()))
def test_a_marked_figure_is_todays_plan(page, mark, text):
    args = shlex.split(mark["args"])
    stated = int(mark["count"].replace(",", ""))
    planned = _plan_size(args)
    if planned != stated and _missing_browsers() and "browser" in (mark["args"] + _paragraph(text, mark.start())):
        pytest.skip(f"this machine lacks {', '.join(_missing_browsers())}: the browser cells differ from a full machine's")
    assert planned == stated, (f"{page.relative_to(ROOT)} says {stated} cells for `run {mark['args']}`; "
                               f"today's grids plan {planned}")
    if DURATION.search(mark["rest"]):
        paragraph = _paragraph(text, mark.start())
        assert DATE.search(paragraph) and "load" in paragraph, \
            f"{page.relative_to(ROOT)}: `{mark.group(0)}` gives a duration without its date and load"


def test_every_figure_of_a_profiles_cells_is_marked():
    unmarked = []
    for page in PAGES:
        text = _prose(page)
        marked = {m.start("count") for m in MARKED.finditer(text)}
        for m in COUNT.finditer(text):
            before = text[max(0, m.start() - 200):m.start()]
            if m.start("count") not in marked and "profile" in before.split("\n\n")[-1]:
                line = text.count("\n", 0, m.start()) + 1
                unmarked.append(f"{page.relative_to(ROOT)}:{line}: {m.group(0)}")
    assert not unmarked, ("figures of a profile's cells without a `<!-- cells: OPTIONS -->` marker "
                          "(tests/python/test_doc_figures.py):\n" + "\n".join(unmarked))


def test_the_readme_states_the_default_profiles_cells():
    assert any(param.values[0].name == "README.md" for param in figures())
