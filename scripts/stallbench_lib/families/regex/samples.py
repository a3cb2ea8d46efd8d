"""Sample inputs for the sample check: engines against each other, and a safe rewrite against its
original, beyond the attack inputs. Deterministic per pattern name. They are made of:

- the alphabet: every literal character of both regexes (escaped metacharacters too), the ends of
  every class range and the characters just outside them, the attack's characters, and `!`;
- random strings over the alphabet;
- the attack input at its shortest lengths;
- strings each regex matches, generated from it (randexp, through attacks.analyse), short ones;
- those attack and generated strings with one or two random edits: the near-misses where a
  rewrite's language most often differs from its original's.

Inputs are built as text and turned into bytes at the end: UTF-8 with the u flag; without it, a
character below 256 is one byte (V8 sees the same Latin-1 character) and any other its UTF-8."""
import random
import zlib

from . import inputs, regex_syntax
from .patterns import Pattern

MAX_RANDOM_LENGTH = 16   # short, so a backtracking engine's worst case stays small
# Generated strings nearly match, the worst case of a backtracking engine without a guard
# (std::regex, Python's re): 2^16 steps is a millisecond, 2^30 is minutes (Python's re took 76 s on
# ^(a+)+$ against 29 a's and a '!'). Longer ones only for an entry that says it is not exponential,
# or says nothing and has no repeat inside a repeat.
SHORT_GENERATED_LENGTH = 16
LONG_GENERATED_LENGTH = 48
MAX_GENERATED_LENGTH = {"polynomial": LONG_GENERATED_LENGTH, "linear": LONG_GENERATED_LENGTH}
RANDOM_COUNT = 400
MUTATED_COUNT = 400
ATTACK_LENGTHS = 16      # the attack recipe at its 16 shortest lengths
LINE_BREAK_FLAGS = "ms"  # only these make line breaks part of the language the engines agree on


SURROGATES = range(0xD800, 0xE000)


def as_bytes(text: str, unicode: bool) -> str:
    """Text -> the bytes the engines get (as a Latin-1 string). With the u flag inputs are UTF-8 text,
    which has no lone surrogate (a regex's class can name one): it becomes U+FFFD, so the input, and
    the catalogue a run writes, stay UTF-8 (a random pump holding one made the catalogue unreadable)."""
    if unicode:
        return inputs.to_bytes("".join("\ufffd" if ord(c) in SURROGATES else c for c in text))
    return "".join(c if ord(c) < 256 else inputs.to_bytes(c) for c in text)


def as_text(data: str, unicode: bool) -> str:
    """Bytes (Latin-1 string) -> text to edit character by character."""
    return data.encode("latin-1").decode("utf-8", "replace") if unicode else data


def alphabet(pattern: Pattern) -> list[str]:
    chars = set("!")
    for p in pattern.pumps:
        chars |= set(as_text(p.before + p.pump, pattern.unicode))
    chars |= set(as_text(pattern.prefix + pattern.suffix, pattern.unicode))
    for regex in filter(None, (pattern.regex, pattern.safe)):
        named = regex_syntax.named_characters(regex)
        chars |= named.characters() | ({"x"} if named.dot else set())
    if not any(f in pattern.flags for f in LINE_BREAK_FLAGS):
        chars -= {"\n", "\r"}
    if pattern.unicode:
        chars = {c for c in chars if ord(c) not in SURROGATES}
    return sorted(c for c in chars if c)


def _longest(pattern: Pattern) -> int:
    """An entry that says nothing gets long strings unless a repeat of its has a repeat inside (the
    shape of every exponential case): a counterexample of a polynomial one can need 20 characters."""
    if pattern.expect is None and not has_nested_repeat(pattern.regex):
        return LONG_GENERATED_LENGTH
    return MAX_GENERATED_LENGTH.get(pattern.expect, SHORT_GENERATED_LENGTH)


def has_nested_repeat(regex: str) -> bool:
    """Whether a group holding a repeat is itself repeated: (a+)+, (?:\\d*x)*, (a|b+){2,}; an optional
    group, (x+)?, is not a repeat."""
    inner: list[bool] = []   # per open group: whether it holds a quantifier so far
    closed_with_repeat = False
    i, in_class = 0, False
    while i < len(regex):
        c = regex[i]
        repeat = c in "*+" or c == "{" and regex[i + 1:i + 2].isdigit()   # `?` repeats nothing
        if c == "\\":
            i += 2
            closed_with_repeat = False
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            inner.append(False)
        elif c == ")" and inner:
            closed_with_repeat = inner.pop()
            i += 1
            continue
        elif repeat:
            if closed_with_repeat:
                return True
            if inner:
                inner[-1] = True
        closed_with_repeat = False
        i += 1
    return False


def attack_inputs(pattern: Pattern) -> list[str]:
    """The attack at its shortest lengths, none longer than the generated strings may be: an exact
    attack's fixed part can be catastrophic alone (recheck's for ^(?:a{2,40})+$ starts with 40 a's)."""
    if not pattern.pumps:
        return []
    longest = _longest(pattern)
    lengths = [pattern.fixed + k * pattern.period for k in range(ATTACK_LENGTHS)]
    return [pattern.attack_input(n) for n in lengths if n <= longest]


def _mutated(rng: random.Random, text: str, letters: list[str]) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 2)):
        at = rng.randint(0, len(chars))
        edit = rng.choice(("insert", "replace", "delete"))
        if edit == "insert" or not chars:
            chars.insert(at, rng.choice(letters))
        elif edit == "replace":
            chars[min(at, len(chars) - 1)] = rng.choice(letters)
        else:
            del chars[min(at, len(chars) - 1)]
    return "".join(chars)


def sample_inputs(pattern: Pattern, generated: list[str] = ()) -> list[str]:
    """The sample inputs as bytes (Latin-1 strings), no duplicates. `generated`: strings the regexes
    match (text), from attacks.analyse."""
    rng = random.Random(zlib.crc32(pattern.name.encode()))
    letters = alphabet(pattern)
    attacks = [as_text(a, pattern.unicode) for a in attack_inputs(pattern)]
    longest = _longest(pattern)
    made = [g for g in generated if len(g) <= longest]
    texts = dict.fromkeys(attacks + made)
    for _ in range(RANDOM_COUNT):
        texts["".join(rng.choice(letters) for _ in range(rng.randint(0, MAX_RANDOM_LENGTH)))] = None
    bases = attacks + made
    for _ in range(MUTATED_COUNT if bases else 0):
        texts[_mutated(rng, rng.choice(bases), letters)] = None
    return list(dict.fromkeys(as_bytes(t, pattern.unicode) for t in texts))


def random_pump(pattern: Pattern, size: int = 64) -> str:
    """A pump of random alphabet characters (as bytes), for timing a pattern without an attack."""
    rng = random.Random(zlib.crc32(pattern.regex.encode()))
    letters = [c for c in alphabet(pattern) if c not in "\n\r"]
    return as_bytes("".join(rng.choice(letters) for _ in range(size)), pattern.unicode)
