"""The characters a regex names, for the sample check's alphabet: every literal character (escaped
metacharacters too: `\\}` names `}`), and for every class range its two ends and the characters
just outside them (a class's boundaries are where a rewrite most often differs from its original).
A light reading of the common JavaScript/Perl syntax, not a validator: what it does not know it
skips (the engines are the judges of syntax)."""
import re
import sys
from dataclasses import dataclass, field

# Class shorthands: their ranges, so they get boundaries like written classes.
SHORTHANDS = {"d": [("0", "9")], "w": [("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_")], "s": [(" ", " "), ("\t", "\t")]}
CONTROL = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v", "0": "\0"}
QUANTIFIER = re.compile(r"\{\d+(,\d*)?\}")
HEX = re.compile(r"x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|c([A-Za-z])")
SYNTAX = set("^$.|?*+()[")


@dataclass
class Named:
    literals: set[str] = field(default_factory=set)
    ranges: list[tuple[str, str]] = field(default_factory=list)
    dot: bool = False  # the regex uses `.`

    def characters(self) -> set[str]:
        """Literals, and each range's ends with their outside neighbours (printable ones)."""
        found = set(self.literals)
        for low, high in self.ranges:
            found |= {low, high}
            for c in (chr(ord(low) - 1) if ord(low) > 0 else "",
                      chr(ord(high) + 1) if ord(high) < sys.maxunicode else ""):  # a class up to U+10FFFF (Python's)
                if c.isprintable() and c:
                    found.add(c)
        return found


def _escape(text: str, at: int) -> tuple[str | None, list[tuple[str, str]], int]:
    """The escape at text[at] == '\\': (a character, or None; ranges of a shorthand; next index)."""
    if at + 1 >= len(text):
        return "\\", [], at + 1
    kind = text[at + 1]
    if kind.lower() in SHORTHANDS:
        return None, SHORTHANDS[kind.lower()], at + 2
    if kind in CONTROL:
        return CONTROL[kind], [], at + 2
    coded = HEX.match(text, at + 1)
    if coded:
        byte, unit, point, control = coded.groups()
        value = chr(int(byte or unit or point, 16)) if not control else chr(ord(control.upper()) % 32)
        return value, [], coded.end()
    if kind in "pPk" and at + 2 < len(text) and text[at + 2] in "{<":  # \p{...}, \k<name>: no character
        close = text.find("}" if text[at + 2] == "{" else ">", at + 2)
        return None, [], (close + 1) if close > 0 else len(text)
    if kind.isdigit() or kind in "bB":  # backreferences and word boundaries name no character
        return None, [], at + 2
    return kind, [], at + 2  # an escaped metacharacter, or a letter some dialects give a meaning


def _class(text: str, at: int, named: Named) -> int:
    """Reads the class opening at text[at] == '['; returns the index after its ']'."""
    at += 1
    if at < len(text) and text[at] == "^":
        at += 1
    members: list[str | None] = []
    first = True
    while at < len(text) and (text[at] != "]" or first):
        first = False
        if text[at] == "\\":
            char, shorthand, at = _escape(text, at)
            named.ranges += shorthand
            members.append(char)
        else:
            members.append(text[at])
            at += 1
        if len(members) >= 3 and members[-2] == "-" and members[-3] is not None and members[-1] is not None:
            low, high = members[-3], members[-1]
            named.ranges.append((min(low, high), max(low, high)))
            members[-3:] = [None]
    named.ranges += [(c, c) for c in members if c is not None]
    return at + 1


def named_characters(regex: str) -> Named:
    named, at = Named(), 0
    while at < len(regex):
        c = regex[at]
        if c == "\\":
            char, shorthand, at = _escape(regex, at)
            named.ranges += shorthand
            if char is not None:
                named.literals.add(char)
        elif c == "[":
            at = _class(regex, at, named)
        elif c == "{" and QUANTIFIER.match(regex, at):
            at = QUANTIFIER.match(regex, at).end()
        elif c == "(" and regex.startswith("(?", at):  # (?:, (?=, (?<name> ...: only the group's syntax
            close = regex.find(">", at) if regex.startswith("(?<", at) and regex[at + 3:at + 4] not in "=!" else -1
            at = close + 1 if close > 0 else at + (3 if regex[at + 2:at + 3] in ":=!" else 4)
        else:
            named.dot |= c == "."
            if c not in SYNTAX:
                named.literals.add(c)
            at += 1
    return named
