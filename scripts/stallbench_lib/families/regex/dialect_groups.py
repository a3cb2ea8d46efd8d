"""The other half of dialects.py's reader: groups (capturing, named, atomic, lookaround, inline
flags, comments) and character classes. Capture groups are written with a marker naming them and
backreferences with a marker naming the group they mean; `numbered` replaces both by JavaScript's
numbers once the whole regex is written, so a group inserted for an atomic group or a possessive
repeat renumbers every backreference after it."""
import re

from .dialect_rules import POSIX
from .dialect_text import class_text, folded

OPEN, REFERENCE = "\x00", "\x01"  # markers: OPEN id OPEN after a capture's "(", REFERENCE id REFERENCE
FLAG_GROUP = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])")
LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")
IGNORED_FLAGS = set("aduU") - {"U"}  # already so here: ASCII (Python a), UNIX_LINES (Java d), Unicode case (Java u)


def numbered(text: str) -> str:
    """Markers replaced: captures numbered in the order they open, references by their group's number."""
    numbers = {}
    for k, found in enumerate(re.finditer(f"{OPEN}(\\d+){OPEN}", text), 1):
        numbers[found.group(1)] = str(k)
    text = re.sub(f"{OPEN}\\d+{OPEN}", "", text)
    return re.sub(f"{REFERENCE}(\\d+){REFERENCE}", lambda m: "\\" + numbers[m.group(1)], text)


def uncaptured(text: str) -> str:
    """A group's pattern with its captures made non-capturing (what a subroutine call runs)."""
    return re.sub(f"\\({OPEN}\\d+{OPEN}", "(?:", text)


class GroupReading:
    def capture(self) -> str:
        self.ids += 1
        return f"({OPEN}{self.ids}{OPEN}"

    def reference(self, group: int) -> str:
        return f"(?:{REFERENCE}{group}{REFERENCE})"

    def atomic(self, inner: str) -> str:
        opening = self.capture()
        return f"(?={opening}{inner})){REFERENCE}{self.ids}{REFERENCE}"

    def inside(self, opening: str, flags: set) -> str:
        body = self.alternation(flags)
        if self.peek() != ")":
            self.fail("a group without its )")
        self.at += 1
        return opening + body + ")"

    def group(self, flags: set) -> str | None:
        rest = self.text[self.at:]
        if rest.startswith("(?#"):
            end = self.text.find(")", self.at)
            self.at = len(self.text) if end < 0 else end + 1
            return ""
        for opening, closing in self.rules.name_refs:
            if rest.startswith(opening) and opening.startswith("("):
                self.at += len(opening) - 2
                return self.named_reference("\\" + opening[1:], closing)
        if rest.startswith(LOOKAROUND):
            opening = next(o for o in LOOKAROUND if rest.startswith(o))
            self.at += len(opening)
            return self.inside(opening, flags)
        if rest.startswith("(?>") and self.rules.possessive:
            self.at += 3
            opening = self.capture()
            inner = self.inside("", flags)
            return f"(?={opening}{inner}){REFERENCE}{self.ids}{REFERENCE}"
        for named in self.rules.named:
            if rest.startswith("(" + named):
                closing = ">" if named.endswith("<") else "'"
                end = self.text.find(closing, self.at + len(named) + 1)
                name = self.text[self.at + len(named) + 1:end]
                self.at = end + 1
                return self.numbered_group(flags, name)
        if rest.startswith("(?:"):
            self.at += 3
            return self.inside("(?:", flags)
        if rest.startswith("(?"):
            return self.inline_flags(flags)
        self.at += 1
        return self.numbered_group(flags, None)

    def numbered_group(self, flags: set, name: str | None) -> str:
        self.original += 1
        opening = self.capture()
        self.renumber[self.original] = self.ids
        if name is not None:
            self.names[name] = self.ids
        written = self.inside(opening, flags)
        if name is not None:
            self.bodies[name] = written[len(opening):-1]
        return written

    def inline_flags(self, flags: set) -> str | None:
        """(?imsx) changes the flags of the rest of its group (None: no atom); (?i-s:...) a group."""
        found = FLAG_GROUP.match(self.text, self.at)
        if found is None:
            self.fail(f"the group {self.text[self.at:self.at + 4]}")
        on, off = (set(self.canonical(letters or "")) for letters in found.group(1, 2))
        self.at = found.end()
        if found.group(3) == ")":
            flags |= on
            flags -= off
            return None
        return self.inside("(?:", (flags | on) - off)

    def canonical(self, letters: str) -> str:
        rules, out = self.rules, ""
        for c in letters:
            if c in IGNORED_FLAGS:
                continue
            if c in ("i", "x") or c == rules.dotall_letter or c == rules.multiline_letter:
                out += "s" if c == rules.dotall_letter else c
            else:
                self.fail(f"the inline flag {c}")
        return out

    def klass(self, flags: set) -> str:
        self.at += 1
        negated = self.peek() == "^"
        self.at += negated
        ranges, first = [], True
        while self.peek() != "]" or first:
            if not self.peek():
                self.fail("a class without its ]")
            ranges += self.class_item(flags, first)
            first = False
        self.at += 1
        return class_text(folded(ranges) if "i" in flags else ranges, negated)

    def class_item(self, flags: set, first: bool) -> list:
        c = self.peek()
        if c.isspace() and "x" in flags and self.rules.language == "Java":
            self.at += 1
            return []
        if self.text.startswith("[:", self.at) and self.rules.posix_brackets:
            end = self.text.find(":]", self.at)
            name = self.text[self.at + 2:end].removeprefix("^")
            if end < 0 or name not in POSIX:
                self.fail("a POSIX class")
            self.at = end + 2
            return POSIX[name]
        if self.text.startswith("&&", self.at) or c == "[" and self.rules.language in ("Java", "Ruby"):
            self.fail("a class operation")
        low = self.class_character(first)
        if isinstance(low, list):
            return low
        if self.peek() == "-" and self.peek(1) not in ("]", ""):
            self.at += 1
            high = self.class_character(False)
            if isinstance(high, list) or high < low:
                self.fail("a class range")
            return [(low, high)]
        return [(low, low)]

    def class_character(self, first: bool) -> str | list:
        c = self.peek()
        self.at += 1
        if c != "\\":
            return c
        e = self.peek()
        self.at += 1
        if e == "b":
            return "\b"
        shorthand = self.class_escape(e, set())
        return shorthand if shorthand is not None else self.character(e)
