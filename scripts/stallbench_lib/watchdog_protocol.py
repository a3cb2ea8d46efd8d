"""The framing of what the orchestrator and its watchdog say to each other: one JSON object per line,
written with every non-ASCII and control character escaped, so a line holds printable ASCII only and
no value — a path with a newline in it, a user's command line — can end a message or start another.
A line that is not exactly one of the messages below is refused as a whole (decode returns None):
nothing in a malformed line is acted on.

Requests (orchestrator -> watchdog):
  {"watch": PGID, "cap": BYTES}  kill the group if we die; cap its resident memory (0: no cap)
  {"release": PGID}              the group is gone or no longer ours
  {"remove": PATH}               delete the file if we die
  {"keep": PATH}                 ... no longer
Report (watchdog -> orchestrator):
  {"memory": PGID, "rss": BYTES, "cap": BYTES}  the group was killed for memory

A PGID is an integer above 1: 0 and 1 (our own group; init's, or every process with killpg(-1))
are refused, not merely avoided. PATH is a string (any text, surrogate escapes of undecodable bytes
included) with no NUL, which no file name holds."""
import json
import os

# verb -> the other fields it carries and what each must be
_PGID = "pgid"
_BYTES = "bytes"
_PATH = "path"
MESSAGES = {
    "watch": {"cap": _BYTES},
    "release": {},
    "remove": {},
    "keep": {},
    "memory": {"rss": _BYTES, "cap": _BYTES},
}
_VERB_VALUE = {"watch": _PGID, "release": _PGID, "memory": _PGID, "remove": _PATH, "keep": _PATH}
MAX_LINE = 1 << 20  # a longer line is no message of ours (a path holds at most 4096 bytes)


def _valid(kind: str, value) -> bool:
    if kind == _PATH:
        return isinstance(value, str) and value != "" and "\0" not in value
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return value > 1 if kind == _PGID else value >= 0


def encode(verb: str, value, **fields) -> bytes:
    """One message as its line (newline included). ValueError for a message the protocol has no
    place for: it would be refused at the other end."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    message = {verb: value, **fields}
    if decode_text(message) is None:
        raise ValueError(f"not a watchdog message: {message!r}")
    return json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def decode_text(message) -> tuple[str, object, dict] | None:
    """(verb, its value, the other fields) of a parsed message, or None when it is not exactly one."""
    if not isinstance(message, dict):
        return None
    verbs = [k for k in message if k in MESSAGES]
    if len(verbs) != 1:
        return None
    verb = verbs[0]
    fields = {k: v for k, v in message.items() if k != verb}
    wanted = MESSAGES[verb]
    if set(fields) != set(wanted) or not _valid(_VERB_VALUE[verb], message[verb]):
        return None
    if not all(_valid(kind, fields[name]) for name, kind in wanted.items()):
        return None
    return verb, message[verb], fields


def decode(line: bytes) -> tuple[str, object, dict] | None:
    """One line (without its newline) -> (verb, value, fields), or None when it is not a message."""
    if len(line) > MAX_LINE:
        return None
    try:
        return decode_text(json.loads(line.decode("ascii")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


class LineReader:
    """Splits a byte stream into lines at b"\\n" only (no other byte ends one), keeping a line cut
    between two reads for the next. A line over MAX_LINE is dropped whole: its tail, read later, is
    not taken for a line of its own."""

    def __init__(self):
        self.pending = b""
        self.overlong = False  # inside a line being dropped

    def feed(self, chunk: bytes) -> list[bytes]:
        *lines, pending = (self.pending + chunk).split(b"\n")
        if lines and self.overlong:
            lines, self.overlong = lines[1:], False
        if len(pending) > MAX_LINE:
            pending, self.overlong = b"", True
        self.pending = pending
        return [line for line in lines if len(line) <= MAX_LINE]
