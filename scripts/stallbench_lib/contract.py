"""The seam between the bench binaries and this orchestrator: contract/protocol.schema.json.

That file is the one declaration of what a binary says (its description, its cells, its repetition
records) and of the protocol version. CMake reads the version from it into the harness; this module
reads it here and checks every document a binary writes against it, so a binary built from other
sources stops the command with one line instead of failing far from here. The checker covers the
part of JSON Schema the file uses: $ref, type, const, enum, properties, required,
additionalProperties, items, minimum."""
import json

from .paths import ROOT
from .documents import json_loads

SCHEMA_FILE = ROOT / "contract" / "protocol.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text())
DEFINITIONS = SCHEMA["$defs"]
PROTOCOL = DEFINITIONS["protocol"]["const"]

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


class ProtocolError(ValueError):
    """A document that is not this protocol's: one line naming where and what."""


def fields(definition: str) -> list[str]:
    """The field names of one definition (an object), in the schema's order."""
    return list(DEFINITIONS[definition]["properties"])


def _is(value, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def _check(value, rule: dict, where: str) -> None:
    if "$ref" in rule:
        return _check(value, DEFINITIONS[rule["$ref"].removeprefix("#/$defs/")], where)
    kinds = rule.get("type")
    if kinds is not None and not any(_is(value, k) for k in ([kinds] if isinstance(kinds, str) else kinds)):
        raise ProtocolError(f"{where}: expected {' or '.join([kinds] if isinstance(kinds, str) else kinds)}, "
                            f"found {json.dumps(value)[:60]}")
    if "const" in rule and value != rule["const"]:
        raise ProtocolError(f"{where}: expected {json.dumps(rule['const'])}, found {json.dumps(value)[:60]}")
    if "enum" in rule and value not in rule["enum"]:
        raise ProtocolError(f"{where}: {json.dumps(value)[:60]} is not one of {', '.join(map(str, rule['enum']))}")
    if "minimum" in rule and _is(value, "number") and value < rule["minimum"]:
        raise ProtocolError(f"{where}: {value} is below {rule['minimum']}")
    if isinstance(value, dict):
        missing = [k for k in rule.get("required", []) if k not in value]
        if missing:
            raise ProtocolError(f"{where}: missing {', '.join(missing)}")
        properties, others = rule.get("properties", {}), rule.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                _check(item, properties[key], f"{where}.{key}")
            elif others is False:
                raise ProtocolError(f"{where}: unexpected field {key!r}")
            elif isinstance(others, dict):
                _check(item, others, f"{where}.{key}")
    if isinstance(value, list) and "items" in rule:
        for i, item in enumerate(value):
            _check(item, rule["items"], f"{where}[{i}]")


def check(document, definition: str, source: str) -> dict:
    """`document` when it is one of this protocol's `definition`s; else ProtocolError in one line
    naming `source` (the binary that wrote it). A document of another protocol version is refused
    before its shape is looked at: its shape is another version's."""
    if isinstance(document, dict) and "protocol" in DEFINITIONS[definition].get("properties", {}) \
            and document.get("protocol") != PROTOCOL:
        raise ProtocolError(f"{source} speaks stallbench protocol {document.get('protocol')!r}, this orchestrator "
                            f"reads protocol {PROTOCOL} ({SCHEMA_FILE.relative_to(ROOT)}): build this "
                            f"checkout's binaries (any command without --no-build does)")
    try:
        _check(document, DEFINITIONS[definition], definition)
    except ProtocolError as e:
        raise ProtocolError(f"{source}: {e}") from None
    return document


def parse(text: str, definition: str, source: str) -> dict:
    """check() of a JSON text; text that is not JSON is a ProtocolError too."""
    try:
        document = json_loads(text)
    except json.JSONDecodeError as e:
        raise ProtocolError(f"{source} wrote no JSON {definition} ({e})") from None
    return check(document, definition, source)
