"""Regexes of Python, Ruby (Onigmo), Java and Go, read by a parser of their own syntax and written
as JavaScript that means the same on the engines' inputs, for the tools that make attacks (recheck,
randexp and attack_shapes.js read JavaScript only). Inline flags become what they do where they
apply: `(?i:ab)` is `[aA][bB]`, `(?x)` drops whitespace and comments, `(?s)` makes `.` `[\\s\\S]`;
an atomic group or a possessive repeat is the lookahead that captures what it took, then that
capture (`(?>X)` is `(?=(X))\\1`), backreferences renumbered around it; anchors and `\\s` become
what the dialect means by them (dialect_rules.py). What has no exact JavaScript (conditionals,
subroutine calls, `\\G`, class intersections, Unicode properties) is refused with the reason, and
the entry is then "uncertain (no attack)", never timed as if linear."""
from dataclasses import replace

from . import dialect_rules
from .dialect_groups import GroupReading, numbered, uncaptured
from .dialect_rules import DIALECTS, POSIX, Rules
from .dialect_text import CONTROL, TOP, TOP_BMP, WORD, Unreadable, char_text, class_text, complement, folded

class _Reader(GroupReading):
    def __init__(self, text: str, rules: Rules, flags: str):
        self.text, self.at, self.rules = text, 0, rules
        self.ids = 0          # capture groups written so far (inserted ones included), by id
        self.renumber = {}    # the dialect's group number -> its id
        self.names = {}       # group name -> its id
        self.bodies = {}      # group name -> its pattern as written, once the group has closed
        self.original = 0     # the dialect's capture groups opened so far
        self.flags = set(flags) - set("ugy")  # those the pattern's text is read with
        self.top = TOP if "u" in flags else TOP_BMP  # the last character a negated class can name

    def fail(self, what: str):
        raise Unreadable(f"{what} at character {self.at + 1} has no exact JavaScript")

    def peek(self, k: int = 0) -> str:
        return self.text[self.at + k] if self.at + k < len(self.text) else ""

    def skip_extended(self, flags: set) -> None:
        while "x" in flags and self.at < len(self.text) and (self.peek().isspace() or self.peek() == "#"):
            if self.peek() == "#":
                end = self.text.find("\n", self.at)
                self.at = len(self.text) if end < 0 else end
            self.at += 1

    def alternation(self, flags: set) -> str:
        flags = set(flags)  # an inline (?i) holds to the end of its group, across its alternatives
        branches = [self.sequence(flags)]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.sequence(flags))
        return "|".join(branches)

    def sequence(self, flags: set) -> str:
        out = []
        while True:
            self.skip_extended(flags)
            if self.at >= len(self.text) or self.peek() in "|)":
                return "".join(out)
            atom = self.atom(flags)
            if atom is None:  # an inline flag group: the rest of this group reads with its flags
                continue
            out.append(self.quantified(atom, flags))

    def quantified(self, atom: str, flags: set) -> str:
        self.skip_extended(flags)
        count = self.quantifier()
        if count is None:
            return atom
        text = atom + count
        if self.peek() == "?":
            self.at += 1
            return text + "?"
        if self.peek() == "+" and self.rules.possessive:
            self.at += 1
            return self.atomic(text)
        return text

    def quantifier(self) -> str | None:
        c = self.peek()
        if c in ("*", "+", "?"):
            self.at += 1
            return c
        if c != "{":
            return None
        close = self.text.find("}", self.at)
        body = self.text[self.at + 1:close] if close > 0 else ""
        low, comma, high = body.partition(",")
        if not (low.isdigit() or (self.rules.brace_min_optional and comma and low == "" and high.isdigit())) \
                or comma and high and not high.isdigit():
            return None  # a literal brace, as in every dialect here
        self.at = close + 1
        return "{" + (low or "0") + comma + high + "}"

    def atom(self, flags: set) -> str | None:
        c = self.peek()
        if c == "(":
            return self.group(flags)
        if c == "[":
            return self.klass(flags)
        self.at += 1
        if c == ".":
            return "[\\s\\S]" if "s" in flags else "[^\\n]"
        if c == "^":
            multi = self.rules.always_multiline or "m" in flags
            return self.rules.caret_multiline if multi else dialect_rules.START
        if c == "$":
            return dialect_rules.LINE_END if self.rules.always_multiline or "m" in flags else self.rules.dollar
        if c == "\\":
            return self.escape(flags)
        return self.literal(c, flags)

    def literal(self, c: str, flags: set) -> str:
        if "i" in flags and c.isascii() and c.isalpha():
            return class_text([(c.lower(), c.lower()), (c.upper(), c.upper())], False)
        return char_text(c, False)

    def escape(self, flags: set) -> str:
        c = self.peek()
        self.at += 1
        anchors = {"A": dialect_rules.START, "b": "\\b", "B": "\\B",
                   "Z": self.rules.big_z, "z": dialect_rules.END if self.rules.small_z else None}
        if c in anchors:
            return anchors[c] if anchors[c] is not None else self.fail(f"\\{c}")
        if c.isdigit() and c != "0":
            return self.backreference(c)
        if c == "g" and self.rules.language == "Ruby" and self.peek() in ("<", "'"):
            return self.call()
        for opening, closing in self.rules.name_refs:
            if opening.startswith("\\") and self.text.startswith(opening, self.at - 2):
                return self.named_reference(opening, closing)
        found = self.class_escape(c, flags)
        if found is None:
            return self.literal(self.character(c), flags)
        return class_text(folded(found) if "i" in flags else found, False)

    def backreference(self, first: str) -> str:
        digits = first
        while self.peek().isdigit():
            digits += self.peek()
            self.at += 1
        if not self.rules.backreferences or int(digits) not in self.renumber:
            self.fail(f"the backreference \\{digits}")
        return self.reference(self.renumber[int(digits)])

    def call(self) -> str:
        """Onigmo's \\g<name>: the named group's pattern again (non-capturing), when it closed before
        the call; a call into an open group recurses, which no JavaScript can write."""
        end = self.text.find(">" if self.peek() == "<" else "'", self.at + 1)
        name = self.text[self.at + 1:end]
        if end < 0 or name not in self.bodies:
            self.fail(f"the call \\g<{name}> (recursive, or to a group not yet closed)")
        self.at = end + 1
        return "(?:" + uncaptured(self.bodies[name]) + ")"

    def named_reference(self, opening: str, closing: str) -> str:
        self.at += len(opening) - 2
        end = self.text.find(closing, self.at)
        name = self.text[self.at:end]
        if end < 0 or name not in self.names:
            self.fail("a reference to an unknown group")
        self.at = end + 1
        return self.reference(self.names[name])

    def class_escape(self, c: str, flags: set) -> list | None:
        """The ranges a shorthand names, or None when `c` is not one."""
        rules = self.rules
        shorthands = {"d": [("0", "9")], "w": WORD, "s": list(rules.space)}
        if rules.hex_h:
            shorthands["h"] = dialect_rules.HEX_DIGIT
        if rules.java_h:
            shorthands["h"] = dialect_rules.JAVA_HORIZONTAL
        if c.lower() in shorthands and (c.islower() or c.lower() in "dwsh"):
            found = shorthands[c.lower()]
            return found if c.islower() else complement(found, self.top)
        if c in "pP" and rules.java_properties and self.peek() == "{":
            end = self.text.find("}", self.at)
            name = self.text[self.at + 1:end].lower().removeprefix("is")
            if end < 0 or name not in POSIX:
                self.fail("a Unicode property")
            self.at = end + 1
            return POSIX[name] if c == "p" else complement(POSIX[name], self.top)
        if c in "pPGKXgRQEkN":
            self.fail(f"\\{c}")
        return None

    def character(self, c: str) -> str:
        """The character an escape names (not a shorthand)."""
        if c in CONTROL:
            return CONTROL[c]
        if c == "0":
            digits = ""
            while len(digits) < 2 and self.peek() in "01234567" and self.peek():
                digits += self.peek()
                self.at += 1
            return chr(int(digits or "0", 8))
        if c in "xuU":
            return self.coded(c)
        if c == "c" and self.peek().isalpha():
            self.at += 1
            return chr(ord(self.text[self.at - 1].upper()) % 32)
        if c.isalnum():
            self.fail(f"\\{c}")
        return c

    def coded(self, c: str) -> str:
        if self.peek() == "{":
            end = self.text.find("}", self.at)
            digits, self.at = self.text[self.at + 1:end], end + 1
        else:
            size = {"x": 2, "u": 4, "U": 8}[c]
            digits, self.at = self.text[self.at:self.at + size], self.at + size
        try:
            return chr(int(digits, 16))
        except ValueError:
            self.fail(f"\\{c}{digits}")


def with_native_reference(patterns: list, engines) -> list:
    """Entries written in another dialect than JavaScript, with no `reference` of their own, get their
    language's engine as reference: its answers are the right ones for a regex written for it."""
    return [replace(p, reference=engines.for_language(DIALECTS[p.dialect].language))
            if p.dialect in DIALECTS and p.reference is None else p for p in patterns]


def to_javascript(regex: str, flags: str, dialect: str) -> tuple[str, str]:
    """(source, flags) of the JavaScript that means what `regex` means in `dialect` with the
    catalogue's `flags` (imsu); Unreadable says what cannot be written so."""
    if dialect == dialect_rules.JAVASCRIPT:
        return regex, flags
    reader = _Reader(regex, DIALECTS[dialect], flags)
    source = reader.alternation(reader.flags)
    if reader.at < len(regex):
        reader.fail("an unbalanced )")
    return numbered(source), "".join(f for f in "ugy" if f in flags)  # how it is run stays: u, g, y
