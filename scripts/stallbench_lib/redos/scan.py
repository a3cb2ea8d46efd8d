"""`stallbench regex --scan DIR`: the regexes of a JavaScript/TypeScript source tree (node/scan.mjs,
a real parser: acorn) as catalogue entries with no attack (recheck finds one), JavaScript's engine
(the engine table's, V8) as their reference, and where each was found (file:line:column) as their
source. The same regex at several places is one entry naming every place."""
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import UsageError
from . import tools
from .engines import Engines
from .patterns import FLAGS, MAX_REGEX, Pattern

MAX_FILES = 20_000
MAX_FILE_BYTES = 10_000_000
DROPPED_FLAGS = {"d": "d (indices) does not change whether a string matches or how long it takes"}
SHOWN_PLACES = 5
LANGUAGE = "JavaScript"  # what the scan reads: its regexes mean what this language's engine says


@dataclass
class Scan:
    root: Path
    patterns: list[Pattern]
    files: int
    declarations: int = 0                                       # TypeScript declaration files, skipped as such
    places: dict[str, list[str]] = field(default_factory=dict)  # pattern name -> every file:line:column
    dynamic: list[dict] = field(default_factory=list)           # RegExp built from non-constant values
    unparsed: list[dict] = field(default_factory=list)          # files the parser could not read
    skipped: list[dict] = field(default_factory=list)           # files not read (too large, too many)
    left_out: list[str] = field(default_factory=list)           # regexes found but not measurable, and why


def _name(place: dict, taken: set[str]) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", place["file"]).strip("-") or "source"
    name, k = f"{stem}-L{place['line']}", 2
    while name in taken:
        name, k = f"{stem}-L{place['line']}-{k}", k + 1
    return name


def _flags(given: str) -> tuple[str, list[str]]:
    """JavaScript flags -> the catalogue's (i, m, s, u) and notes on the rest."""
    notes = [DROPPED_FLAGS[f] for f in given if f in DROPPED_FLAGS]
    kept = set(given) & set(FLAGS)
    if "v" in given:
        kept.add("u")
        notes.append("v (unicodeSets) is measured as u")
    return "".join(f for f in FLAGS if f in kept), notes


def _where(place: dict) -> str:
    return f"{place['file']}:{place['line']}:{place['column']}"


def scan(root: Path) -> Scan:
    """The regexes under `root` as catalogue entries. UsageError when the directory cannot be
    read or the parser cannot run."""
    root = root.resolve()
    if not root.is_dir():
        raise UsageError(f"--scan {root}: not a directory")
    try:
        reply = tools.run("scan.mjs", {"root": str(root), "max_files": MAX_FILES, "max_bytes": MAX_FILE_BYTES},
                          timeout_s=600)
    except tools.ToolFailed as e:
        raise UsageError(f"--scan {root}: {e}") from None
    found = Scan(root, [], reply["files"], reply.get("declarations", 0), dynamic=reply["dynamic"],
                 unparsed=reply["unparsed"], skipped=reply["skipped"])
    by_regex: dict[tuple[str, str], list[dict]] = {}
    for place in reply["regexes"]:
        by_regex.setdefault((place["source"], place["flags"]), []).append(place)
    taken: set[str] = set()
    for (source, given_flags), places in by_regex.items():
        if not source or len(source) > MAX_REGEX:
            found.left_out.append(f"{_where(places[0])}: " + ("an empty regex" if not source else
                                                               f"a regex of {len(source):,} characters"))
            continue
        flags, notes = _flags(given_flags)
        name = _name(places[0], taken)
        taken.add(name)
        shown = ", ".join(_where(p) for p in places[:SHOWN_PLACES])
        more = f" and {len(places) - SHOWN_PLACES} more" if len(places) > SHOWN_PLACES else ""
        analysis = f"Found as {places[0]['kind']} /{source}/{given_flags}." + "".join(f" Flag {n}." for n in notes)
        found.patterns.append(Pattern(name, source, None, flags, "", (), "", None, None, None, None, "",
                                      f"{shown}{more}", analysis))
        found.places[name] = [_where(p) for p in places]
    if not found.patterns:
        raise UsageError(f"--scan {root}: no constant regex found in {found.files} JavaScript/TypeScript files"
                         + (f" ({len(found.dynamic)} built from non-constant values)" if found.dynamic else ""))
    return found


def with_reference(found: list[Pattern], engines: Engines) -> list[Pattern]:
    """The scanned entries with JavaScript's engine as their reference."""
    reference = engines.for_language(LANGUAGE)
    return [replace(p, reference=reference) for p in found]


def summary_lines(found: Scan) -> list[str]:
    """What the scan read and left out, for stderr and the report."""
    lines = [f"scanned {found.files} JavaScript/TypeScript files under {found.root}: {len(found.patterns)} distinct "
             f"constant regexes ({sum(len(p) for p in found.places.values())} places)"
             + (f"; {found.declarations} TypeScript declaration files (.d.ts, .d.mts, .d.cts: types only) skipped"
                if found.declarations else "")]
    lines += [f"  not measured: {d['file']}:{d['line']}:{d['column']}: {d['kind']}: {d['why']}" for d in found.dynamic]
    lines += [f"  not measured: {text}" for text in found.left_out]
    lines += [f"  not parsed: {u['file']}:{u['line']}:{u['column']}: {u['message']}" for u in found.unparsed]
    lines += [f"  not read: {s['file'] or found.root}: {s['why']}" for s in found.skipped]
    return lines
