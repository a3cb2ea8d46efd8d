"""runtimes.py, the one reading of where a cell ran: a row's runtime and its node_line shown as one
label (node@26), that label split as the harness splits it (the last '@'), and one order for every
report: stallbench first, numbered lines by value, other lines (system) after them, whatever order
the run gave. Rows written before protocol 5 (runtime=node@26) read as today's."""
from stallbench_lib import runtimes
from stallbench_lib.parameters import Params


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


def test_a_rows_runtime_and_its_line_are_two_keys_shown_as_one_label():
    node = Params({"runtime": "node", "node_line": "26", "n": "10"})
    assert runtimes.label(node) == "node@26" and runtimes.node_line(node) == "26"
    assert runtimes.label(Params({"runtime": "stallbench"})) == "stallbench"
    assert runtimes.node_line(Params({"runtime": "stallbench"})) == ""
    regex = Params({"engine": "node-linear", "node_line": "system", "pattern": "p"})
    assert runtimes.label(regex, "engine") == "node-linear@system"
    assert Params(runtimes.params_of("node-linear@system", "engine")) == Params({"engine": "node-linear", "node_line": "system"})
    assert runtimes.params_of("re2", "engine") == {"engine": "re2"}


def test_rows_written_before_protocol_5_read_as_todays():
    assert Params.parse("n=10;runtime=node@26") == Params({"n": "10", "runtime": "node", "node_line": "26"})
    assert Params.parse("engine=node-linear@system;length=20") == \
        Params({"engine": "node-linear", "node_line": "system", "length": "20"})
    # Only the two parameters that named Node then, and only a Node value: a mix's '@' is its own.
    assert Params.parse("mix=pbkdf2@1000:5;runtime=stallbench")["mix"] == "pbkdf2@1000:5"
    assert Params.parse("node_line=26;runtime=node") == Params({"runtime": "node", "node_line": "26"})
