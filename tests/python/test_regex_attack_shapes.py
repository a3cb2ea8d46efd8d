"""Attacks of stallbench's own, read from a regex's structure (node/attack_shapes.js) and completed
for the engine that runs the regex (node/literals.js): the shapes that found the published advisories
recheck's fuzzer missed or found only on some runs, asked of the modules themselves (no timing)."""
import json

import pytest

from stallbench_lib import children
from stallbench_lib.families.regex import tools

ASK = """
const { attackShapes } = require(process.argv[2] + '/attack_shapes');
const { withMatch } = require(process.argv[2] + '/literals');
const { parse } = require('regjsparser');
const { source, flags, attack } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(attack ? withMatch(parse, source, flags, attack) ?? null : attackShapes(parse, source, flags)));
"""


def ask(tmp_path, source: str, flags: str = "", attack: dict | None = None):
    script = tmp_path / "ask.js"
    script.write_text(ASK)
    env = {"NODE_PATH": str(tools.modules_dir())}
    done = children.run([str(tools.tool_node()), str(script), str(tools.HERE)], input=json.dumps(
        {"source": source, "flags": flags, "attack": attack}), text=True, timeout_s=60, memory_bytes=0, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_one_round_of_a_repeat_with_each_branch_of_an_alternation_inside_it(tmp_path, regex_tools):
    # validators' domain regex (CVE-2019-19588): two letters are one label through two branches, and
    # a round only holds the alternation with a dot after it; pumping each branch's round finds it.
    found = ask(tmp_path, r"^(:?(([a-z])|([a-z][a-z])|([a-z0-9][-a-z0-9]{0,61}[a-z0-9]))\.)+([a-z]{2,13})$")
    assert any(a["shape"] == "overlapping alternatives" and a["pump"] == ":aa." for a in found)


def test_a_repeat_that_also_takes_the_text_after_it_is_pumped_with_that_text(tmp_path, regex_tools):
    # urllib3's authority regex (CVE-2021-33503): `(.*)@` can end at any @, and the host takes the rest.
    found = ask(tmp_path, r"^(?:(.*)@)?((?:[^\[\]%:/?#]|%[a-f0-9]{2})*)(?::([0-9]{0,5}))?$", "s")
    assert any(a["shape"] == "repeat and what follows it" and a["pump"] == "@" for a in found)


def test_a_regex_with_many_repeats_of_one_shape_still_gets_every_shape_measured(tmp_path, regex_tools):
    nested = "".join(f"(?:x{i}(?:a+b)+)?" for i in range(10))
    found = ask(tmp_path, f"^{nested}(a|aa)+$")
    kinds = [a["shape"] for a in found]
    assert len(found) <= 12 and "nested quantifier" in kinds and "overlapping alternatives" in kinds


@pytest.mark.parametrize("source, flags, pump, suffix, completed", [
    (r"\s*,\s*", "g", " ", "!", "!,"),                   # Rails' If-None-Match split: the comma Onigmo looks for
    (r"([A-Z\d]+)([A-Z][a-z])", "g", "0", "!", "!0Aa"),  # Active Support's underscore: a lowercase letter after
])
def test_an_attack_is_completed_by_a_match_after_its_suffix(tmp_path, regex_tools, source, flags, pump, suffix,
                                                             completed):
    attack = {"shape": "repeat", "pumps": [{"before": "", "pump": pump}], "suffix": suffix}
    found = ask(tmp_path, source, flags, attack)
    assert found["suffix"] == completed and found["shape"] == "repeat, then a match"
    assert ask(tmp_path, source, flags, {**attack, "suffix": completed}) is None  # already holds one
