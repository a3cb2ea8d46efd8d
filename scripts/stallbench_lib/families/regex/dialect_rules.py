"""What each regex dialect means by the constructs the dialects spell alike and read differently,
as the engines run them here (docs/regex.md, "Engines that read a construct differently"): the
class `\\s` names, where `^` and `$` match, what `\\Z` and `\\h` are, which syntax exists at all.
dialects.py writes each construct as the JavaScript (no flags) that means the same.

Every dialect's `.` here is any character but a newline (Java runs with UNIX_LINES), with `s` (Ruby:
its `m`) any character. Without a multiline flag, `$` also matches before a final newline in Python
and Java; Ruby's `^` and `$` always match at line breaks; Go's `$` is the end of the text."""
from dataclasses import dataclass

START = "^"                            # JavaScript without flags: the start of the input
END = "$"                              # the end of the input
LINE_START = "(?<![^\\n])"             # at the start, or after a newline
JAVA_LINE_START = "(?:^|(?<=\\n)(?!$))"  # ... but not after a final line terminator (Pattern.MULTILINE)
LINE_END = "(?=\\n|$)"                 # before a newline, or at the end
END_OR_FINAL_NEWLINE = "(?=\\n?$)"      # at the end, or before a newline that ends the input
HEX_DIGIT = [("0", "9"), ("A", "F"), ("a", "f")]
JAVA_HORIZONTAL = [(" ", " "), ("\t", "\t"), ("\xa0", "\xa0"), ("\u1680", "\u1680"), ("\u180e", "\u180e"),
                   ("\u2000", "\u200a"), ("\u202f", "\u202f"), ("\u205f", "\u205f"), ("\u3000", "\u3000")]
POSIX = {  # [[:name:]] (Ruby, Go) and \p{Name} (Java), ASCII
    "alpha": [("A", "Z"), ("a", "z")], "digit": [("0", "9")], "alnum": [("0", "9"), ("A", "Z"), ("a", "z")],
    "upper": [("A", "Z")], "lower": [("a", "z")], "space": [("\t", "\r"), (" ", " ")], "xdigit": HEX_DIGIT,
    "punct": [("!", "/"), (":", "@"), ("[", "`"), ("{", "~")], "blank": [(" ", " "), ("\t", "\t")],
    "cntrl": [("\0", "\x1f"), ("\x7f", "\x7f")], "graph": [("!", "~")], "print": [(" ", "~")],
    "word": [("0", "9"), ("A", "Z"), ("_", "_"), ("a", "z")], "ascii": [("\0", "\x7f")],
}


@dataclass(frozen=True)
class Rules:
    language: str                 # the engine table's language: whose engine is the reference
    space: tuple                  # the ranges `\s` names
    dollar: str                   # `$` without multiline, as JavaScript
    caret_multiline: str          # `^` with multiline (Ruby: always)
    always_multiline: bool        # Ruby: ^ and $ at every line break, whatever the flags
    dotall_letter: str            # the inline flag for dotAll: s (Ruby: m)
    multiline_letter: str | None  # the inline flag for ^ $ at line breaks (Ruby: none, they always are)
    big_z: str | None             # what \Z means; None: the dialect has no \Z
    small_z: bool                 # \z is the end of the input
    hex_h: bool                   # Ruby: \h is a hex digit (Java: horizontal space)
    java_h: bool
    named: tuple                  # group openings that name a group: "?P<", "?<", "?'"
    name_refs: tuple              # (opening, closing) of a named backreference
    brace_min_optional: bool      # {,n} is a quantifier (0 to n)
    possessive: bool              # X*+ and (?>X)
    posix_brackets: bool          # [[:alpha:]]
    java_properties: bool         # \p{Alpha} and the like
    backreferences: bool


ASCII_SPACE = (("\t", "\r"), (" ", " "))
DIALECTS = {
    "python": Rules("Python", ASCII_SPACE, END_OR_FINAL_NEWLINE, LINE_START, False, "s", "m", END, False, False,
                    False, ("?P<",), (("(?P=", ")"),), True, True, False, False, True),
    "ruby": Rules("Ruby", ASCII_SPACE, LINE_END, LINE_START, True, "m", None, END_OR_FINAL_NEWLINE, True, True,
                  False, ("?<", "?'"), (("\\k<", ">"), ("\\k'", "'")), True, True, True, False, True),
    "java": Rules("Java", ASCII_SPACE, END_OR_FINAL_NEWLINE, JAVA_LINE_START, False, "s", "m", END_OR_FINAL_NEWLINE,
                  True, False, True, ("?<",), (("\\k<", ">"),), False, True, False, True, True),
    "go": Rules("Go", (("\t", "\n"), ("\f", "\r"), (" ", " ")), END, LINE_START, False, "s", "m", None, True, False,
                False, ("?P<",), (), False, False, True, False, False),
}
JAVASCRIPT = "javascript"
NAMES = (JAVASCRIPT, *DIALECTS)


def dialect_of(language: str) -> str:
    """The dialect of a language as the engine table names it ("Python" -> python); JavaScript's when
    no other dialect is that language's."""
    return next((name for name, rules in DIALECTS.items() if rules.language == language), JAVASCRIPT)
