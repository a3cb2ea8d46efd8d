"""Random inputs over a pattern's alphabet, for checking a safe rewrite against its original and
engines against each other beyond the attack inputs. Deterministic per pattern name."""
import random
import zlib

from .patterns import Pattern

# Characters that stand for a class in the regex text; each class gets a member and, for the
# negated ones, a non-member. No line breaks: the engines differ on them ($, .), the inputs never
# contain them.
CLASS_MEMBERS = {"\\d": "07", "\\D": "x!", "\\w": "aZ_5", "\\W": " !", "\\s": " \t", "\\S": "x", ".": "x"}
SYNTAX = set("\\^$.|?*+()[]{}")
MAX_RANDOM_LENGTH = 16   # short, so a backtracking engine's worst case stays small
RANDOM_COUNT = 400
MUTATED_COUNT = 300
ATTACK_LENGTHS = 16      # the attack recipe at its 16 shortest lengths


def alphabet(pattern: Pattern) -> list[str]:
    """The characters the input and both regexes name, class members, and one stranger ('!')."""
    chars = set(pattern.prefix + pattern.pump + pattern.suffix + "!")
    for regex in filter(None, (pattern.regex, pattern.safe)):
        for escape, members in CLASS_MEMBERS.items():
            if escape in regex:
                chars |= set(members)
        chars |= {c for c in regex if c.isprintable() and c not in SYNTAX}
    return sorted(chars)


def attack_inputs(pattern: Pattern) -> list[str]:
    shortest = len(pattern.prefix) + len(pattern.suffix)
    return [pattern.attack_input(n) for n in range(shortest, shortest + ATTACK_LENGTHS)]


def sample_inputs(pattern: Pattern) -> list[str]:
    """Random strings over the alphabet, the short attack inputs, and those with one or two random
    edits (the near-misses where a rewrite's language most often differs). No duplicates."""
    rng = random.Random(zlib.crc32(pattern.name.encode()))
    letters = alphabet(pattern)
    found = dict.fromkeys(attack_inputs(pattern))
    for _ in range(RANDOM_COUNT):
        found["".join(rng.choice(letters) for _ in range(rng.randint(0, MAX_RANDOM_LENGTH)))] = None
    bases = list(attack_inputs(pattern))
    for _ in range(MUTATED_COUNT):
        text = list(rng.choice(bases))
        for _ in range(rng.randint(1, 2)):
            at = rng.randint(0, len(text))
            edit = rng.choice(("insert", "replace", "delete"))
            if edit == "insert" or not text:
                text.insert(at, rng.choice(letters))
            elif edit == "replace":
                text[min(at, len(text) - 1)] = rng.choice(letters)
            else:
                del text[min(at, len(text) - 1)]
        found["".join(text)] = None
    return list(found)
