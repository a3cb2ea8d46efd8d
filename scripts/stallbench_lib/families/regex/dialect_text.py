"""The text dialects.py writes: JavaScript characters and classes (no flags), and the class
arithmetic its shorthands and case folding need."""

SPECIAL = set("\\^$.|?*+()[]{}/")
CONTROL = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "a": "\x07", "e": "\x1b"}
WORD = [("0", "9"), ("A", "Z"), ("_", "_"), ("a", "z")]
TOP = "\U0010ffff"    # the last code point, with the u flag
TOP_BMP = "\uffff"    # without it: JavaScript reads \u{...} as a repeat there


class Unreadable(ValueError):
    """The regex uses what no JavaScript means exactly (the message says what)."""


def complement(ranges: list, top: str = TOP) -> list:
    out, low = [], 0
    for a, b in sorted((ord(a), ord(b)) for a, b in ranges):
        if a > low:
            out.append((chr(low), chr(a - 1)))
        low = max(low, b + 1)
    return out + ([(chr(low), top)] if low <= ord(top) else [])


def folded(ranges: list) -> list:
    """ASCII case folding of a class: each letter range gains its other case."""
    extra = []
    for a, b in ranges:
        for low, high, shift in (("a", "z", -32), ("A", "Z", 32)):
            lo, hi = max(a, low), min(b, high)
            if lo <= hi:
                extra.append((chr(ord(lo) + shift), chr(ord(hi) + shift)))
    return ranges + extra


def char_text(c: str, in_class: bool) -> str:
    if c in SPECIAL or in_class and c in "-]^":
        return "\\" + c
    if c.isprintable() and ord(c) < 0x7f:
        return c
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\u{{{ord(c):x}}}"


def class_text(ranges: list, negated: bool) -> str:
    body = "".join(char_text(a, True) + ("" if a == b else "-" + char_text(b, True)) for a, b in ranges)
    return f"[{'^' if negated else ''}{body}]" if body or negated else "[^\\s\\S]"
