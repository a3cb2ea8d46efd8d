"""The pattern catalogue (TOML): loading and validating it, its variants (NAME and NAME.safe), and
the attack input recipe. The bench binary reads the same file (workloads/regex/catalogue.cc); this
side refuses a bad file before anything runs, with one line naming the file, the entry and what
is wrong."""
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..errors import UsageError

SHIPPED = paths.ROOT / "workloads" / "regex" / "patterns.toml"
SAFE_SUFFIX = ".safe"
FIELDS = ("name", "regex", "safe", "prefix", "pump", "suffix", "lengths", "expect", "source", "analysis")
REQUIRED = ("name", "regex", "pump", "source")
EXPECTATIONS = ("linear", "polynomial", "exponential")
DEFAULT_LENGTHS = [2 ** k for k in range(3, 17)]  # 8 ... 65536
MAX_LENGTH = 50_000_000  # the bench's `length` range
NAME_SYNTAX = re.compile(r"[A-Za-z0-9_-]+")
INPUT_TEXT = re.compile(r"[\t\x20-\x7e]*")  # ASCII without line breaks: every engine agrees on it
# prefix, pump and suffix each: the sample check builds hundreds of inputs from them (a 2 MB prefix
# took 1 GB there). The bench's loader (workloads/regex/catalogue.cc) has the same bound.
MAX_RECIPE_TEXT = 1024


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: str
    safe: str | None
    prefix: str
    pump: str
    suffix: str
    lengths: list[int]
    expect: str | None
    source: str
    analysis: str

    def attack_input(self, length: int) -> str:
        """prefix + pump repeated (and cut) + suffix, `length` characters in all."""
        fill = length - len(self.prefix) - len(self.suffix)
        return self.prefix + (self.pump * (fill // len(self.pump) + 1))[:fill] + self.suffix

    def variants(self) -> list["Variant"]:
        found = [Variant(self.name, self.regex, self, False)]
        if self.safe is not None:
            found.append(Variant(self.name + SAFE_SUFFIX, self.safe, self, True))
        return found


@dataclass(frozen=True)
class Variant:
    name: str       # NAME or NAME.safe: the `pattern` parameter's value
    regex: str
    pattern: Pattern
    is_safe: bool


def _check_entry(entry, index: int, where: str) -> Pattern:
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: pattern {index} is not a table")
    label = f"{where}: pattern {index}" + (f" {entry['name']!r}" if isinstance(entry.get("name"), str) else "")
    unknown = sorted(set(entry) - set(FIELDS))
    if unknown:
        raise UsageError(f"{label}: unknown field {unknown[0]!r} (valid: {', '.join(FIELDS)})")
    missing = [f for f in REQUIRED if f not in entry]
    if missing:
        raise UsageError(f"{label}: missing field {missing[0]!r} (required: {', '.join(REQUIRED)})")
    for field in FIELDS:
        if field in entry and field != "lengths" and not isinstance(entry[field], str):
            raise UsageError(f"{label}: {field!r} must be a string")
    name = entry["name"]
    if not NAME_SYNTAX.fullmatch(name):
        raise UsageError(f"{label}: name {name!r} may use only letters, digits, '-' and '_'")
    for field in ("regex", "safe"):
        if field in entry and entry[field] == "":
            raise UsageError(f"{label}: {field!r} is empty")
    if entry["pump"] == "":
        raise UsageError(f"{label}: 'pump' is empty (the attack input repeats it to the requested length)")
    for field in ("prefix", "pump", "suffix"):
        if not INPUT_TEXT.fullmatch(entry.get(field, "")):
            raise UsageError(f"{label}: {field!r} must be ASCII without line breaks")
        if len(entry.get(field, "")) > MAX_RECIPE_TEXT:
            raise UsageError(f"{label}: {field!r} has {len(entry[field]):,} characters (valid: at most {MAX_RECIPE_TEXT})")
    if "expect" in entry and entry["expect"] not in EXPECTATIONS:
        raise UsageError(f"{label}: expect {entry['expect']!r} is not valid (valid: {', '.join(EXPECTATIONS)})")
    fixed = len(entry.get("prefix", "")) + len(entry.get("suffix", ""))
    lengths = entry.get("lengths", DEFAULT_LENGTHS)
    try:
        lengths = check_lengths(lengths, fixed)
    except ValueError as e:
        raise UsageError(f"{label}: lengths: {e}")
    return Pattern(name, entry["regex"], entry.get("safe"), entry.get("prefix", ""), entry["pump"],
                   entry.get("suffix", ""), lengths, entry.get("expect"), entry["source"], entry.get("analysis", ""))


def check_lengths(lengths, shortest: int = 0) -> list[int]:
    """A non-empty increasing list of integers in [max(1, shortest), MAX_LENGTH]; ValueError says why."""
    if not isinstance(lengths, list) or not lengths:
        raise ValueError("expected a non-empty list of integers")
    low = max(1, shortest)
    for n in lengths:
        if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= MAX_LENGTH:
            raise ValueError(f"{n!r} is out of range (valid: integers {low}-{MAX_LENGTH:,}"
                             + (", at least the prefix and suffix" if shortest else "") + ")")
    if any(b <= a for a, b in zip(lengths, lengths[1:])):
        raise ValueError(f"{lengths} must be increasing")
    return list(lengths)


def load(path: Path) -> list[Pattern]:
    """Every entry of the catalogue at `path`, or UsageError (one line: file, entry, problem)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{where}: cannot read the pattern catalogue: {e}")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{where}: invalid TOML: {e}")
    extra = sorted(set(doc) - {"pattern"})
    if extra:
        raise UsageError(f"{where}: unknown top-level key {extra[0]!r} (a catalogue is [[pattern]] tables only)")
    entries = doc.get("pattern")
    if not isinstance(entries, list) or not entries:
        raise UsageError(f"{where}: no [[pattern]] entries")
    patterns, seen = [], set()
    for index, entry in enumerate(entries, 1):
        pattern = _check_entry(entry, index, where)
        if pattern.name in seen:
            raise UsageError(f"{where}: pattern {index} {pattern.name!r}: the name is used twice")
        seen.add(pattern.name)
        patterns.append(pattern)
    return patterns


def variants(patterns: list[Pattern]) -> list[Variant]:
    return [v for p in patterns for v in p.variants()]
