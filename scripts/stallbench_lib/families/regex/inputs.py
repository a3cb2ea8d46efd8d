"""Attack and sample inputs are bytes. Here they are held as str whose every character is one byte
(U+0000-U+00FF, "Latin-1 strings"): what regex_check and the bench take, and what the engines see.

In a catalogue, `prefix`, `pump`, `pumps` and `suffix` are text standing for its UTF-8 bytes, with
three escapes of ours on top of TOML's: \\xNN one byte, \\u{H...} the UTF-8 bytes of a code point,
\\\\ a backslash (workloads/regex/catalogue.cc decodes the same way)."""
import re

ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u\{([0-9A-Fa-f]{1,6})\}|(\\))")
PLAIN = set(map(chr, range(0x20, 0x7F))) - {"\\"}


def to_bytes(text: str) -> str:
    """Unicode text -> its UTF-8 bytes as a Latin-1 string. A lone surrogate (a regex's class can
    name one: [\\uD800-\\uDBFF] without u) has no UTF-8: it gets the three bytes UTF-8's scheme gives it."""
    return text.encode("utf-8", "surrogatepass").decode("latin-1")


def decode(text: str) -> str:
    """Catalogue text with our escapes -> bytes as a Latin-1 string; ValueError names the position."""
    out, at = [], 0
    while at < len(text):
        slash = text.find("\\", at)
        if slash < 0:
            out.append(to_bytes(text[at:]))
            break
        out.append(to_bytes(text[at:slash]))
        found = ESCAPE.match(text, slash)
        if found is None:
            raise ValueError(f"unknown escape at character {slash + 1} (valid: \\xNN, \\u{{H...}}, \\\\)")
        byte, code, backslash = found.groups()
        if byte:
            out.append(chr(int(byte, 16)))
        elif code:
            point = int(code, 16)
            if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
                raise ValueError(f"\\u{{{code}}} at character {slash + 1} is not a Unicode scalar value")
            out.append(to_bytes(chr(point)))
        else:
            out.append(backslash)
        at = found.end()
    return "".join(out)


def encode(data: str) -> str:
    """The inverse of decode: printable ASCII as itself, every other byte as \\xNN."""
    return "".join(c if c in PLAIN else "\\\\" if c == "\\" else f"\\x{ord(c):02x}" for c in data)


def is_utf8(data: str) -> bool:
    try:
        data.encode("latin-1").decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def shown(data: str, limit: int = 60) -> str:
    """A readable form of an input: the escaped text, cut in the middle when long."""
    text = encode(data)
    return f"'{text}'" if len(data) <= limit else f"'{encode(data[:24])}'…'{encode(data[-12:])}' ({len(data):,} bytes)"
