"""`stallbench regex --scan DIR`: the regexes of a source tree in every language the suite has an
engine for (languages.py: JavaScript/TypeScript, Python, Ruby, Java, Go, each read by its own
language's parser) as catalogue entries with no attack, their own language's engine (the engine
table's) as their reference, their language's dialect (its attack is made from its own syntax:
attacks.py, dialects.py), and where each was found (file:line:column) as their source. The same
regex at several places of one language is one entry naming every place."""
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ... import parallel
from ...errors import UsageError
from . import dialect_rules, languages, tools
from .engines import Engines
from .patterns import FLAGS, MAX_REGEX, Pattern

MAX_FILES = 20_000
MAX_FILE_BYTES = 10_000_000
DROPPED_FLAGS = {"d": "d (indices) does not change whether a string matches or how long it takes"}
SHOWN_PLACES = 5


@dataclass
class Scan:
    root: Path
    patterns: list[Pattern]
    files: dict[str, int]                                       # language -> files read
    declarations: int = 0                                       # TypeScript declaration files, skipped as such
    places: dict[str, list[str]] = field(default_factory=dict)  # pattern name -> every file:line:column
    dynamic: list[dict] = field(default_factory=list)           # RegExp built from non-constant values
    unparsed: list[dict] = field(default_factory=list)          # files the parser could not read
    skipped: list[dict] = field(default_factory=list)           # files not read (too large, too many)
    left_out: list[str] = field(default_factory=list)           # regexes found but not measurable, and why
    languages: dict[str, str] = field(default_factory=dict)     # pattern name -> the language it was written in


def _name(place: dict, taken: set[str]) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", place["file"]).strip("-") or "source"
    name, k = f"{stem}-L{place['line']}", 2
    while name in taken:
        name, k = f"{stem}-L{place['line']}-{k}", k + 1
    return name


def _flags(place: dict, language: str) -> tuple[str, list[str]]:
    """The catalogue's flags (i, m, s, u) and notes on the rest: JavaScript's flags as written are
    mapped here, the other readers give the catalogue's letters and their own notes."""
    given = place["flags"]
    if language != "JavaScript":
        return given, place.get("notes", [])
    notes = [DROPPED_FLAGS[f] for f in given if f in DROPPED_FLAGS]
    kept = set(given) & set(FLAGS)
    if "v" in given:
        kept.add("u")
        notes.append("v (unicodeSets) is measured as u")
    return "".join(f for f in FLAGS if f in kept), notes


def _where(place: dict) -> str:
    return f"{place['file']}:{place['line']}:{place['column']}"


def _files(root: Path, found: Scan) -> dict[languages.Reader, list[str]]:
    """Every source file under `root` by reader (relative paths, in a stable order), not entering
    directories named node_modules or hidden ones below the root; too large files, TypeScript
    declaration files and files past MAX_FILES are counted in `found`, not read."""
    by_reader: dict[languages.Reader, list[str]] = {}
    count = 0
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "node_modules" and not d.startswith("."))
        for name in sorted(names):
            full = Path(here) / name
            file = str(full.relative_to(root))
            if name.endswith(languages.DECLARATIONS):
                found.declarations += 1
                continue
            reader = languages.reader_of(name)
            if reader is None or "\n" in file or not full.is_file():
                continue
            if count == MAX_FILES:
                found.skipped.append({"file": "", "why": f"more than {MAX_FILES} source files: the rest not read"})
                return {r: by_reader[r] for r in languages.READERS if r in by_reader}
            size = full.stat().st_size
            if size > MAX_FILE_BYTES:
                found.skipped.append({"file": file, "why": f"{size} bytes (over {MAX_FILE_BYTES})"})
                continue
            count += 1
            by_reader.setdefault(reader, []).append(file)
    return {r: by_reader[r] for r in languages.READERS if r in by_reader}


def _read_all(root: Path, found: Scan) -> list[tuple[str, dict]]:
    """(language, place) of every regex found, each language's files read by its own reader, the
    readers side by side; a reader that cannot run leaves its files unread, said in `found.skipped`."""
    by_reader = _files(root, found)

    def one(reader):
        try:
            return languages.read(reader, root, by_reader[reader])
        except tools.ToolFailed as e:
            return e

    places = []
    for reader, reply in zip(by_reader, parallel.each(one, list(by_reader))):
        if isinstance(reply, tools.ToolFailed):
            found.skipped.append({"file": "", "why": f"{len(by_reader[reader])} {reader.label} files: {reply}"})
            continue
        found.files[reader.label] = len(by_reader[reader])
        found.dynamic += reply["dynamic"]
        found.unparsed += reply["unparsed"]
        places += [(reader.language, place) for place in reply["regexes"]]
    return places


def scan(root: Path) -> Scan:
    """The regexes under `root` as catalogue entries. UsageError when the directory cannot be
    read or holds no constant regex."""
    root = root.resolve()
    if not root.is_dir():
        raise UsageError(f"--scan {root}: not a directory")
    found = Scan(root, [], {})
    try:
        places = _read_all(root, found)
    except OSError as e:
        raise UsageError(f"--scan {root}: cannot read {e.filename or root}: {e.strerror or e}") from None
    by_regex: dict[tuple[str, str, str], list[dict]] = {}
    for language, place in places:
        by_regex.setdefault((language, place["source"], place["flags"]), []).append(place)
    taken: set[str] = set()
    for (language, source, given_flags), places in by_regex.items():
        if not source or len(source) > MAX_REGEX:
            found.left_out.append(f"{_where(places[0])}: " + ("an empty regex" if not source else
                                                               f"a regex of {len(source):,} characters"))
            continue
        flags, notes = _flags(places[0], language)
        name = _name(places[0], taken)
        taken.add(name)
        shown = ", ".join(_where(p) for p in places[:SHOWN_PLACES])
        more = f" and {len(places) - SHOWN_PLACES} more" if len(places) > SHOWN_PLACES else ""
        analysis = (f"Found in {language} as {places[0]['kind']} /{source}/{given_flags}."
                    + "".join(f" Flag {n}." for n in notes))
        found.patterns.append(Pattern(name, source, None, flags, "", (), "", None, None, None, None, "",
                                      f"{shown}{more}", analysis, dialect_rules.dialect_of(language)))
        found.places[name] = [_where(p) for p in places]
        found.languages[name] = language
    if not found.patterns:
        read = ", ".join(f"{n} {label}" for label, n in found.files.items()) or "no source"
        raise UsageError(f"--scan {root}: no constant regex found in {read} files"
                         + (f" ({len(found.dynamic)} built from non-constant values)" if found.dynamic else "")
                         + _unread(found)
                         + f" (languages read: {', '.join(r.label for r in languages.READERS)})")
    return found


def _unread(found: Scan) -> str:
    """What of the tree the scan could not read, for a refusal that found nothing: '; 1 file the
    scan could not read (a.js:3:7: Unexpected token)'."""
    said = [f"{u['file']}:{u['line']}:{u['column']}: {u['message']}" for u in found.unparsed]
    said += [f"{s['file'] or found.root}: {s['why']}" for s in found.skipped]
    if not said:
        return ""
    count = len(found.unparsed) + len(found.skipped)
    more = f"; first: {said[0]}" if count > 1 else f" ({said[0]})"
    return f"; {count} file{'s' if count > 1 else ''} the scan could not read{more}"


def with_reference(found: Scan, patterns: list[Pattern], engines: Engines) -> list[Pattern]:
    """The scanned entries (`patterns`, of `found`) with their own language's engine as their reference."""
    return [replace(p, reference=engines.for_language(found.languages[p.name])) for p in patterns]


def summary_lines(found: Scan) -> list[str]:
    """What the scan read and left out, for stderr and the report."""
    read = ", ".join(f"{n} {label}" for label, n in found.files.items())
    lines = [f"scanned {read} files under {found.root}: {len(found.patterns)} distinct "
             f"constant regexes ({sum(len(p) for p in found.places.values())} places)"
             + (f"; {found.declarations} TypeScript declaration files (.d.ts, .d.mts, .d.cts: types only) skipped"
                if found.declarations else "")]
    lines += [f"  not measured: {d['file']}:{d['line']}:{d['column']}: {d['kind']}: {d['why']}" for d in found.dynamic]
    lines += [f"  not measured: {text}" for text in found.left_out]
    lines += [f"  not parsed: {u['file']}:{u['line']}:{u['column']}: {u['message']}" for u in found.unparsed]
    lines += [f"  not read: {s['file'] or found.root}: {s['why']}" for s in found.skipped]
    return lines
