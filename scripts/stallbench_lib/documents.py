"""JSON and TOML read from outside the program (a user's file, a run directory, the store, a child's
output), with nesting bounded. Python's json and tomllib parsers recurse once per level and raise
RecursionError past about a thousand levels — not a ValueError, so no `except ValueError` around a
reader caught it, and 5,000 nested brackets were a traceback wherever a document is read. Here a
document nested deeper than MAX_DEPTH is the parser's own error (json.JSONDecodeError,
tomllib.TOMLDecodeError: both ValueErrors), whatever depth Python would have managed: what is read
is then walked, validated and written again by code that recurses too. No document stallbench reads
nests beyond a dozen levels."""
import json
import tomllib

MAX_DEPTH = 200


def _depth_over(document, limit: int) -> bool:
    """Whether lists and dicts nest deeper than `limit` in `document` (without recursing)."""
    todo = [(document, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            continue
        if depth > limit:
            return True
        todo.extend((item, depth + 1) for item in value if isinstance(item, (dict, list)))
    return False


def _too_deep() -> str:
    return f"nested deeper than {MAX_DEPTH} levels (no stallbench document is)"


def json_loads(text: str | bytes):
    """json.loads, with a document nested too deeply refused as a json.JSONDecodeError."""
    try:
        document = json.loads(text)
    except RecursionError:
        document = None
        deep = True
    else:
        deep = _depth_over(document, MAX_DEPTH)
    if deep:
        raise json.JSONDecodeError(_too_deep(), text if isinstance(text, str) else "", 0)
    return document


def toml_loads(text: str) -> dict:
    """tomllib.loads, with a document nested too deeply refused as a tomllib.TOMLDecodeError."""
    try:
        document = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(_too_deep()) from None
    if _depth_over(document, MAX_DEPTH):
        raise tomllib.TOMLDecodeError(_too_deep())
    return document
