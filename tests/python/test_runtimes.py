"""runtimes.py, the one reading of where a cell ran: VALUE@LINE split as the harness splits it (the
last '@'), and one order for every report: stallbench first, numbered lines by value, other lines
(system) after them, whatever order the run gave."""
from stallbench_lib import runtimes


def test_split_and_build_are_inverse():
    for value in ("node@26", "node-linear@system", "node@4"):
        base, line = runtimes.split(value)
        assert runtimes.of_line(line, base) == value
    assert runtimes.split("stallbench") == ("stallbench", "")
    assert (runtimes.base("node-linear@26"), runtimes.line("node-linear@26")) == ("node-linear", "26")
    assert runtimes.of_line("26") == "node@26"


def test_one_order_whatever_order_the_values_came_in():
    given = ["node@system", "node@26", "stallbench", "node@4", "node@18", "node@26"]
    assert runtimes.runtimes(given) == ["stallbench", "node@4", "node@18", "node@26", "node@system"]
    assert runtimes.runtimes(reversed(given)) == runtimes.runtimes(given)
