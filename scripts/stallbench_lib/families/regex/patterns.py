"""The pattern catalogue (TOML): loading and validating it, its variants (NAME and NAME.safe), the
attack input recipe and the lengths to escalate through. The bench binary reads the same format
(workloads/regex/catalogue.cc); this side refuses a bad file before anything runs, with one line
naming the file, the entry and what is wrong.

An entry without `pump`/`pumps` has no attack yet: attacks.py asks recheck for one and the run
hands the bench the resolved catalogue (catalogue_file.py), which also records where each attack
came from (`attack`)."""
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from ... import paths
from ...errors import UsageError
from . import dialect_rules, inputs
from ...documents import toml_loads

SHIPPED = paths.ROOT / "workloads" / "regex" / "patterns.toml"
# The catalogue's format, its top-level `format`: 1 (a file without it, written before the escapes
# arrived) reads the attack's text as it is, a backslash being a backslash; 2 reads the escapes
# \xNN, \u{H...} and \\ (inputs.py). `stallbench regex --upgrade-catalogue` rewrites a format 1 file.
FORMAT = 2
FORMATS = (1, 2)
SAFE_SUFFIX = ".safe"
FIELDS = ("name", "regex", "safe", "flags", "dialect", "prefix", "pump", "pumps", "suffix", "lengths", "safe_lengths",
          "expect", "reference", "attack", "source", "analysis")
REQUIRED = ("name", "regex", "source")
TEXT_FIELDS = ("name", "regex", "safe", "flags", "dialect", "prefix", "pump", "suffix", "expect", "reference",
               "attack", "source", "analysis")
EXPECTATIONS = ("linear", "polynomial", "exponential")
FLAGS = "imsugy"  # JavaScript's ignoreCase, multiline, dotAll, unicode, global, sticky
HAND_WRITTEN = "hand-written"
MAX_FIXED = 4096    # bytes of prefix + befores + suffix: each sample input repeats them (issue: a 2 MB prefix)
MAX_PUMP = 4096     # bytes of one pump
MAX_REGEX = 20_000  # characters of a regex
MAX_LENGTH = 50_000_000  # the bench's `length` range
NAME_SYNTAX = re.compile(r"[A-Za-z0-9_-]+")

# Default lengths, in pumped bytes (above the fixed parts): two decades at least, so a fit sees
# growth rather than the constant cost of a call. An exponential attack is over any budget long
# before 64 pumped bytes: it climbs in small steps, then checks that linear engines stay flat.
PUMPED_DEFAULT = [4 ** k * 2 for k in range(1, 8)] + [65536]         # 8, 32, 128 ... 32,768, 65,536
PUMPED_EXPONENTIAL = list(range(8, 41, 4)) + [1024, 65536]
PUMPED_RANDOM = [16, 128, 1024, 8192, 65536]                          # a safe pattern on random input
RANDOM_ATTACK = "random input"  # the end of `attack` when the analyser found no attack to time
# In `attack`, why a flat curve proves nothing: no attack generator could read the regex (it was timed
# on a random input), or the analyser called it vulnerable while no attack measured grew. Such an
# entry's flat curves read as this doubt, never `linear`.
NO_ATTACK = "uncertain (no attack)"
ATTACKS_DISAGREE = "uncertain (attacks disagree)"
DOUBTS = (NO_ATTACK, ATTACKS_DISAGREE)


def doubt_of(attack: str) -> str | None:
    """The doubt an entry's `attack` records, or None."""
    return next((d for d in DOUBTS if d in attack), None)


@dataclass(frozen=True)
class Pump:
    before: str  # bytes (Latin-1 string), once
    pump: str    # bytes, repeated


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: str
    safe: str | None
    flags: str                        # letters of FLAGS, in that order
    prefix: str                       # bytes
    pumps: tuple[Pump, ...]           # empty: no attack yet
    suffix: str                       # bytes
    lengths: tuple[int, ...] | None   # None: the defaults for the attack
    safe_lengths: tuple[int, ...] | None
    expect: str | None
    reference: str | None             # the engine whose answers are right (JavaScript-sourced: node)
    attack: str                       # where the attack came from: hand-written, recheck 4.5.0 ...
    source: str
    analysis: str
    dialect: str = dialect_rules.JAVASCRIPT  # whose syntax the regex is written in (dialect_rules.NAMES)

    @property
    def fixed(self) -> int:
        """Bytes of every input that are not pumped."""
        return len(self.prefix) + len(self.suffix) + sum(len(p.before) for p in self.pumps)

    @property
    def unicode(self) -> bool:
        return "u" in self.flags

    @property
    def period(self) -> int:
        """Bytes one more round of the pumps adds (every pump once)."""
        return sum(len(p.pump) for p in self.pumps) or 1

    def whole(self, length: int) -> int:
        """The length made of whole pumps nearest `length` (at least one round): a pump is never cut."""
        return self.fixed + max(1, round((length - self.fixed) / self.period)) * self.period

    def snapped(self, lengths) -> list[int]:
        """`lengths` rounded to whole pumps, increasing, each once."""
        return sorted({self.whole(n) for n in lengths})

    def attack_input(self, length: int) -> str:
        """prefix + each pump's before and the pump repeated k times + suffix, `length` bytes in all;
        ValueError when `length` is not the fixed parts plus whole pumps (a cut pump's leftover,
        before the suffix, can let the input match early: marked's 3-byte pump read linear)."""
        repeats, cut = divmod(length - self.fixed, self.period)
        if cut or repeats < 0:
            raise ValueError(f"length {length} of {self.name!r} is not made of whole pumps "
                             f"(valid: {self.fixed} + k x {self.period})")
        return self.prefix + "".join(p.before + p.pump * repeats for p in self.pumps) + self.suffix

    def lengths_for(self, safe: bool) -> list[int]:
        given = self.safe_lengths if safe else self.lengths
        if given is None:
            pumped = PUMPED_EXPONENTIAL if self.expect == "exponential" and not safe else PUMPED_DEFAULT
            if self.attack.endswith(RANDOM_ATTACK):
                pumped = PUMPED_RANDOM
            given = [self.fixed + n for n in pumped]
        return self.snapped(given) if self.pumps else list(given)

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

    @property
    def lengths(self) -> list[int]:
        return self.pattern.lengths_for(self.is_safe)

    def ladder(self, given: list[int] | None) -> list[int]:
        """`given` (--lengths) rounded to this attack's whole pumps, else its own lengths."""
        return self.pattern.snapped(given) if given else self.lengths


def _input_part(entry: dict, key: str, label: str, form: int) -> str:
    if form == 1:
        return inputs.to_bytes(entry.get(key, ""))
    try:
        return inputs.decode(entry.get(key, ""))
    except ValueError as e:
        raise UsageError(f"{label}: {key!r}: {e}")


def _pumps(entry: dict, label: str, form: int) -> tuple[Pump, ...]:
    if "pump" in entry and "pumps" in entry:
        raise UsageError(f"{label}: give 'pump' or 'pumps', not both")
    if "pump" in entry:
        found = [Pump("", _input_part(entry, "pump", label, form))]
    else:
        given = entry.get("pumps", [])
        if not isinstance(given, list) or not all(isinstance(p, dict) and set(p) <= {"before", "pump"}
                                                  and all(isinstance(v, str) for v in p.values()) for p in given):
            raise UsageError(f"{label}: 'pumps' must be a list of tables {{before = \"...\", pump = \"...\"}}")
        found = [Pump(_input_part(p, "before", label, form), _input_part(p, "pump", label, form)) for p in given]
    for p in found:
        if p.pump == "":
            raise UsageError(f"{label}: 'pump' is empty (the attack input repeats it to the requested length)")
        if len(p.pump) > MAX_PUMP:
            raise UsageError(f"{label}: a pump of {len(p.pump):,} bytes is too long (at most {MAX_PUMP:,})")
    return tuple(found)


def _lengths(entry: dict, key: str, label: str) -> tuple[int, ...] | None:
    if key not in entry:
        return None
    try:
        return tuple(check_lengths(entry[key]))
    except ValueError as e:
        raise UsageError(f"{label}: {key}: {e}")


def _check_entry(entry, index: int, where: str, form: int) -> Pattern:
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: pattern {index} is not a table")
    label = f"{where}: pattern {index}" + (f" {entry['name']!r}" if isinstance(entry.get("name"), str) else "")
    unknown = sorted(set(entry) - set(FIELDS))
    if unknown:
        raise UsageError(f"{label}: unknown field {unknown[0]!r} (valid: {', '.join(FIELDS)})")
    missing = [f for f in REQUIRED if f not in entry]
    if missing:
        raise UsageError(f"{label}: missing field {missing[0]!r} (required: {', '.join(REQUIRED)})")
    for name in TEXT_FIELDS:
        if name in entry and not isinstance(entry[name], str):
            raise UsageError(f"{label}: {name!r} must be a string")
    if not NAME_SYNTAX.fullmatch(entry["name"]):
        raise UsageError(f"{label}: name {entry['name']!r} may use only letters, digits, '-' and '_'")
    for name in ("regex", "safe"):
        if name in entry and entry[name] == "":
            raise UsageError(f"{label}: {name!r} is empty")
        if len(entry.get(name, "")) > MAX_REGEX:
            raise UsageError(f"{label}: {name!r} has {len(entry[name]):,} characters (at most {MAX_REGEX:,})")
    flags = entry.get("flags", "")
    if any(c not in FLAGS for c in flags) or len(set(flags)) != len(flags):
        raise UsageError(f"{label}: flags {flags!r} is not valid (valid: any of {', '.join(FLAGS)}, each once)")
    if entry.get("dialect", dialect_rules.JAVASCRIPT) not in dialect_rules.NAMES:
        raise UsageError(f"{label}: dialect {entry['dialect']!r} is not valid (valid: {', '.join(dialect_rules.NAMES)})")
    if "expect" in entry and entry["expect"] not in EXPECTATIONS:
        raise UsageError(f"{label}: expect {entry['expect']!r} is not valid (valid: {', '.join(EXPECTATIONS)})")
    pumps = _pumps(entry, label, form)
    pattern = Pattern(entry["name"], entry["regex"], entry.get("safe"), "".join(c for c in FLAGS if c in flags),
                      _input_part(entry, "prefix", label, form), pumps, _input_part(entry, "suffix", label, form),
                      _lengths(entry, "lengths", label), _lengths(entry, "safe_lengths", label), entry.get("expect"),
                      entry.get("reference"), entry.get("attack", HAND_WRITTEN if pumps else ""), entry["source"],
                      entry.get("analysis", ""), entry.get("dialect", dialect_rules.JAVASCRIPT))
    if pattern.fixed > MAX_FIXED:
        raise UsageError(f"{label}: prefix, suffix and befores hold {pattern.fixed:,} bytes (at most {MAX_FIXED:,}: "
                         "every sample input repeats them)")
    if pattern.unicode:
        for name, part in (("prefix", pattern.prefix), ("suffix", pattern.suffix),
                           *(("pump", p.before + p.pump) for p in pumps)):
            if not inputs.is_utf8(part):
                raise UsageError(f"{label}: with the u flag, {name!r} must be UTF-8 text (it holds other bytes)")
    return check_fits(pattern, label) if pumps else pattern


def check_fits(pattern: Pattern, label: str) -> Pattern:
    """UsageError when a given length is shorter than the fixed parts of the attack."""
    for key, given in (("lengths", pattern.lengths), ("safe_lengths", pattern.safe_lengths)):
        if given and given[0] < pattern.fixed:
            raise UsageError(f"{label}: {key}: {given[0]} is shorter than the prefix, befores and suffix "
                             f"({pattern.fixed} bytes; valid: {pattern.fixed}-{MAX_LENGTH:,})")
    return pattern


def check_lengths(lengths, shortest: int = 0) -> list[int]:
    """A non-empty increasing list of integers in [max(1, shortest), MAX_LENGTH]; ValueError says why."""
    if not isinstance(lengths, list) or not lengths:
        raise ValueError("expected a non-empty list of integers")
    low = max(1, shortest)
    for n in lengths:
        if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= MAX_LENGTH:
            raise ValueError(f"{n!r} is out of range (valid: integers {low}-{MAX_LENGTH:,}"
                             + (", at least the fixed parts of every attack" if shortest else "") + ")")
    if any(b <= a for a, b in zip(lengths, lengths[1:])):
        raise ValueError(f"{lengths} must be increasing")
    return list(lengths)


def read_text(path: Path) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise UsageError(f"{path}: cannot read the pattern catalogue: {e.strerror or e}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise UsageError(f"{path}: not UTF-8 text: byte 0x{data[e.start]:02x} at line {line}, column {column} "
                         f"(offset {e.start}); a catalogue is UTF-8 TOML")


def file_format(doc: dict, where: str) -> int:
    """The catalogue's `format` (1 when it has none), or UsageError."""
    form = doc.get("format", 1)
    if not isinstance(form, int) or isinstance(form, bool) or form not in FORMATS:
        raise UsageError(f"{where}: format {form!r} is not one this stallbench reads (valid: "
                         f"{', '.join(map(str, FORMATS))}; none is 1)")
    return form


def parse(text: str, where: str) -> list[Pattern]:
    """Every entry of a catalogue's text, or UsageError (one line: file, entry, problem)."""
    try:
        doc = toml_loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{where}: invalid TOML: {e}")
    extra = sorted(set(doc) - {"pattern", "format"})
    if extra:
        raise UsageError(f"{where}: unknown top-level key {extra[0]!r} (a catalogue is `format` and [[pattern]] "
                         "tables)")
    form = file_format(doc, where)
    entries = doc.get("pattern")
    if not isinstance(entries, list) or not entries:
        raise UsageError(f"{where}: no [[pattern]] entries")
    found, seen = [], set()
    for index, entry in enumerate(entries, 1):
        pattern = _check_entry(entry, index, where, form)
        if pattern.name in seen:
            raise UsageError(f"{where}: pattern {index} {pattern.name!r}: the name is used twice")
        seen.add(pattern.name)
        found.append(pattern)
    return found


def load(path: Path) -> list[Pattern]:
    return parse(read_text(path), str(path))


def check_references(patterns: list[Pattern], engines, where: str) -> None:
    """UsageError naming the first entry whose `reference` is no engine of `engines` (the bench's
    table, engines.Engines: known only once the bench is built)."""
    for index, p in enumerate(patterns, 1):
        engines.check_reference(p.reference, f"{where}: pattern {index} {p.name!r}")


def with_attack(pattern: Pattern, prefix: str, pumps: list[Pump], suffix: str, attack: str,
                expect: str | None) -> Pattern:
    """The entry with an attack found for it (lengths still checked against its fixed parts)."""
    found = replace(pattern, prefix=prefix, pumps=tuple(pumps), suffix=suffix, attack=attack,
                    expect=pattern.expect or expect)
    return check_fits(found, f"pattern {pattern.name!r}")


def variants(patterns: list[Pattern]) -> list[Variant]:
    return [v for p in patterns for v in p.variants()]


def doubts(attacks: dict[str, str]) -> dict[str, str | None]:
    """variant -> the doubt of its entry's attack, from entry name -> `attack` (both variants share it)."""
    return {name + suffix: doubt_of(attack) for name, attack in attacks.items() for suffix in ("", SAFE_SUFFIX)}
