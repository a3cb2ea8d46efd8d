"""`trace --browser` runs a scenario's body as a page's own <script> runs: its timers start at
nesting level 1, so HTML's clamp (4 ms for timers nested more than 5 deep) falls on the same level
as on a real page. Checked in each installed browser against a page that runs the same seven levels
of nested setTimeout from a <script> element (data/pages/nested_timers.html, loaded several times in
one browser), both several times: on a clamped level the 2 ms timer always comes before the 0 ms one
(both wait 4 ms, it was scheduled first); on an unclamped one it comes after, except when a busy
machine runs both late (Firefox then may run them in either order), so the level from which B always
comes first, the most over the runs, is where clamping starts."""
import json
import re

import pytest

from conftest import DATA, stallbench
from stallbench_lib import children
from stallbench_lib.browser import setup
from test_browser import BROWSERS, needs_browser, needs_firefox

SCENARIO = DATA / "nested_timeout_clamp.json"
LEVELS = 7
RUNS = 3


def clamped_from(order: list[str]) -> int:
    """The lowest level from which every level's B came before its A (LEVELS + 1: none)."""
    level = LEVELS + 1
    while level > 1 and order.index(f"B{level - 1}") < order.index(f"A{level - 1}"):
        level -= 1
    return level


def _page_orders(browser: str) -> list[list[str]]:
    d = setup.driving("test", BROWSERS[browser])
    argv = [d.node, str(DATA / "page_order.mjs"), "--browser", d.browser, "--executable", d.executable,
            "--library", str(d.library), "--pages", str(DATA / "pages"), "--page", "nested_timers.html",
            "--times", str(RUNS)]
    out = children.run(argv, text=True, timeout_s=300, reserves_address_space=True)
    assert out.returncode == 0, out.stderr[-2000:]
    orders = [json.loads(line) for line in out.stdout.strip().splitlines() if line.startswith("[")]
    assert len(orders) == RUNS, out.stdout
    return orders


def _traced_orders(browser: str) -> list[list[str]]:
    result = stallbench("trace", "--browser", browser, "--no-build", "--runs", str(RUNS), str(SCENARIO), timeout=600)
    assert result.returncode == 0 and "FAILED" not in result.stdout, result.stdout + result.stderr
    body = result.stdout.split("── nested-timeout-clamp")[1]
    if "distinct orders" in body:
        return [line.split("×  ")[1].split(" → ") for line in body.splitlines() if "×  " in line]
    return [re.findall(r"^\s+\d+  (\S+)$", body, re.M)]


def test_the_clamp_level_is_read_from_an_order():
    order = ["A1", "B1", "B2", "A2", "A3", "B3", "A4", "B4", "B5", "A5", "B6", "A6", "B7", "A7"]
    assert clamped_from(order) == 5  # B2 before A2 was the machine, not a clamp: A3 came first again
    assert clamped_from([f"{x}{n}" for n in range(1, 8) for x in "AB"]) == 8


@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_nested_timeouts_are_clamped_on_the_level_a_pages_script_has_them(browser):
    page = _page_orders(browser)
    assert all(sorted(o) == sorted(f"{x}{n}" for x in "AB" for n in range(1, LEVELS + 1)) for o in page)
    traced = _traced_orders(browser)
    assert max(map(clamped_from, traced)) == max(map(clamped_from, page)), (traced, page)
