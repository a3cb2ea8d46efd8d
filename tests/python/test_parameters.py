"""A cell's parameters as data (stallbench_lib/parameters.py): the one text form and its one parser,
fuzzed with any names and values the form can hold, and the text it refuses; and the two strings a
parameter value still holds, each with its one reader: a runtime (VALUE@LINE, runtimes.py) and a
pool-sweep mix (families/pool_sweep/mixes.py)."""
import ast

import pytest
from hypothesis import given, strategies as st

from conftest import ROOT
from property_settings import fuzzed
from stallbench_lib import runtimes
from stallbench_lib.parameters import Params
from stallbench_lib.families.pool_sweep import mixes

names = st.text(st.characters(blacklist_characters=";=", blacklist_categories=("Cs",)), min_size=1, max_size=20)
values = st.text(st.characters(blacklist_characters=";", blacklist_categories=("Cs",)), max_size=40)
mappings = st.dictionaries(names, values, max_size=8)


@fuzzed
@given(mappings)
def test_the_text_form_reads_back_as_the_same_params(mapping):
    p = Params(mapping)
    assert dict(p) == mapping
    assert Params.parse(str(p)) == p
    assert list(p) == sorted(mapping)


@fuzzed
@given(mappings, mappings)
def test_params_are_equal_hash_alike_and_order_exactly_as_their_text(a, b):
    pa, pb = Params(a), Params(b)
    assert (pa == pb) == (a == b) == (str(pa) == str(pb))
    assert pa != pb or hash(pa) == hash(pb)
    assert (pa < pb) == (str(pa) < str(pb))


def test_numbers_are_spelled_as_text_and_a_string_is_not_params():
    assert str(Params({"pool": 4, "jobs": "6", "digest": "sha256"})) == "digest=sha256;jobs=6;pool=4"
    assert Params({"n": 1}) != "n=1"  # a string that slipped through is never taken for its params
    assert Params({"a": "1"}).with_values(b="2") == Params.parse("a=1;b=2")
    assert str(Params()) == "" and Params.parse("") == Params() and not Params()


@pytest.mark.parametrize("text, words", [
    ("pool=1;jobs=4", "not in canonical form ('jobs=4;pool=1': names sorted)"),
    ("pool", "'pool' is not name=value"),
    ("a=1;a=2", "name a parameter twice"),
    ("a=1;;b=2", "'' is not name=value"),
    ("=1", "name '' is empty"),
])
def test_text_that_is_not_the_one_form_is_refused_with_what_is_wrong(text, words):
    with pytest.raises(ValueError) as caught:
        Params.parse(text)
    assert words in str(caught.value)


@pytest.mark.parametrize("mapping, error", [({"a;b": "1"}, ValueError), ({"a": "x;y"}, ValueError),
                                            ({"a": True}, TypeError), ({"a": None}, TypeError)])
def test_a_mapping_the_text_form_cannot_hold_is_refused(mapping, error):
    with pytest.raises(error):
        Params(mapping)


words = st.text(st.characters(blacklist_characters="@;,=:+", blacklist_categories=("Cs",)), min_size=1, max_size=12)


@fuzzed
@given(st.text(st.characters(blacklist_characters=";=", blacklist_categories=("Cs",)), min_size=1, max_size=12), words)
def test_a_runtime_value_splits_back_into_the_base_and_line_it_was_made_of(base, line):
    value = runtimes.of_line(line, base)
    assert runtimes.split(value) == (base, line)
    assert runtimes.base(value) == base and runtimes.line(value) == line


fields = st.one_of(st.just(""), words)


@fuzzed
@given(st.lists(st.lists(fields, min_size=1, max_size=3), min_size=1, max_size=5))
def test_a_mix_is_the_same_structure_in_either_spelling(items):
    command_line = ",".join(":".join(f) for f in items)
    mix = mixes.Mix.parse(command_line)
    if command_line in mixes.named():
        return
    assert [[i.job_class, *(f for f in (i.rate, i.size) if f is not None)] for i in mix.items] == items
    param = mix.as_param()
    assert not {",", ":"} & set(param)  # they separate other things in a parameter
    assert mix.as_command_line() == command_line and mixes.Mix.parse(param) == mix
    assert Params.parse(str(Params({"mix": param})))["mix"] == param


def test_a_named_mix_keeps_its_name_and_reads_its_items():
    mix = mixes.Mix.parse("login-heavy")
    assert mix.as_param() == mix.as_command_line() == "login-heavy"
    assert mix.classes == ["pbkdf2", "read"] and mix.items[0] == mixes.Item("pbkdf2", "12", "100000")
    assert mixes.Mix.parse("pbkdf2@x4@300000+read@20").in_flight == {"pbkdf2": 4}
    with pytest.raises(ValueError, match="has 4 fields"):
        mixes.Mix.parse("pbkdf2:1:2:3")


def test_no_module_but_the_parameters_reads_the_params_text():
    """Params.parse is the one reader of the params column: no other module splits text on ';'."""
    lib = ROOT / "scripts" / "stallbench_lib"
    found = []
    for path in sorted(set(lib.rglob("*.py")) - {lib / "parameters.py"}):
        for n in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("split", "partition")
                    and n.args and isinstance(n.args[0], ast.Constant) and n.args[0].value == ";"):
                found.append(f"{path.relative_to(ROOT)}:{n.lineno}")
    assert found == []
