"""Writes a catalogue back as TOML: the resolved catalogue a run hands the bench (every attack
filled in, where it came from in `attack`), kept in the run directory, and the catalogue
`--scan` writes for the user to edit and run again. Inputs are written with our escapes
(inputs.encode), so bytes survive; every string is a TOML basic string (JSON's escapes are a
subset of TOML's)."""
import json

from . import inputs
from .dialect_rules import JAVASCRIPT
from .patterns import FORMAT, Pattern

HEADER = """\
# Written by stallbench regex. Edit and run again with: scripts/stallbench regex --patterns THIS_FILE
# Fields: docs/regex.md ("The pattern catalogue"). prefix, pump(s) and suffix are bytes: text is
# its UTF-8; the escapes \\xNN (a byte), \\u{H...} (a code point) and \\\\ (a backslash) appear
# doubled in these TOML basic strings. `attack` says where the attack came from.
"""


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _entry(p: Pattern) -> str:
    lines = ["[[pattern]]", f"name = {_string(p.name)}", f"regex = {_string(p.regex)}"]
    if p.safe is not None:
        lines.append(f"safe = {_string(p.safe)}")
    if p.flags:
        lines.append(f"flags = {_string(p.flags)}")
    if p.dialect != JAVASCRIPT:
        lines.append(f"dialect = {_string(p.dialect)}")
    if p.prefix:
        lines.append(f"prefix = {_string(inputs.encode(p.prefix))}")
    if len(p.pumps) == 1 and not p.pumps[0].before:
        lines.append(f"pump = {_string(inputs.encode(p.pumps[0].pump))}")
    elif p.pumps:
        parts = ", ".join(f"{{before = {_string(inputs.encode(q.before))}, pump = {_string(inputs.encode(q.pump))}}}"
                          for q in p.pumps)
        lines.append(f"pumps = [{parts}]")
    if p.suffix:
        lines.append(f"suffix = {_string(inputs.encode(p.suffix))}")
    for key, given in (("lengths", p.lengths), ("safe_lengths", p.safe_lengths)):
        if given is not None:
            lines.append(f"{key} = [{', '.join(map(str, given))}]")
    for key in ("expect", "reference", "attack", "source", "analysis"):
        value = getattr(p, key)
        if value:
            lines.append(f"{key} = {_string(value)}")
    return "\n".join(lines) + "\n"


def to_toml(patterns: list[Pattern], comment: str = "") -> str:
    notes = "".join(f"# {line}\n" for line in comment.splitlines())
    return HEADER + notes + f"format = {FORMAT}\n\n" + "\n".join(_entry(p) for p in patterns)
