"""--scan's cache of verdicts (`--cache FILE`, default regex-cache.json beside the run directories):
a regex an engine of the same version already measured is not measured again, so a rescan in CI
measures only the regexes it has not seen. One entry per regex, flags, language (its reference
engine and dialect: the same text is another regex in Python than in JavaScript), engine (a V8
engine per Node line), engine version (meta.json's, or the Node line's) and the rules it was
attacked and classified by (RULES): the verdict, its short form, the
length at which a match passed summary.SLOW_MS, how it was measured (triage or escalation) and by which run.
A regex is skipped only when every engine of the scan has an entry for it; a newer engine version
is a new key, so an upgrade measures again. The file is JSON, written atomically at the end of a
run; one that is not a cache of this format is refused with one line (exit 2)."""
import hashlib
import json
from pathlib import Path

from ...atomic import atomic_write
from ...errors import UsageError
from .patterns import Pattern
from ...documents import json_loads

FORMAT = 1
FILE = "regex-cache.json"
# How stallbench attacks and classifies a regex: part of every key, raised when that changes, so that
# a verdict reached by older rules (an attack a dialect's parser now makes better) is measured again.
RULES = 3  # 3: a scan's curves end at 25 ms (summary.SLOW_MS), not 100


def _key(pattern: Pattern, engine: str, version: str) -> str:
    return hashlib.sha256(json.dumps([pattern.regex, pattern.flags, pattern.reference, pattern.dialect, engine,
                                      version, RULES]).encode()).hexdigest()


class Cache:
    def __init__(self, path: Path, entries: dict[str, dict]):
        self.path, self.entries = path, entries

    @classmethod
    def load(cls, path: Path) -> "Cache":
        if not path.exists():
            return cls(path, {})
        try:
            data = json_loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or not isinstance(data.get("entries"), dict):
                raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
        except (OSError, ValueError, AttributeError) as e:
            raise UsageError(f"{path}: not a stallbench regex cache ({e}): delete it or give --no-cache") from None
        return cls(path, data["entries"])

    def seen(self, pattern: Pattern, versions: dict[str, str]) -> list[dict] | None:
        """The cached verdict of every engine of `versions` (engine -> version) on `pattern`; None
        when any engine has not measured it."""
        found = [self.entries.get(_key(pattern, e, v)) for e, v in versions.items()]
        return None if any(entry is None for entry in found) else found

    def store(self, pattern: Pattern, versions: dict[str, str], verdicts: list[dict], run_id: str,
              measured: str) -> None:
        for verdict in verdicts:
            engine = verdict["engine"]
            self.entries[_key(pattern, engine, versions[engine])] = {
                **verdict, "regex": pattern.regex, "flags": pattern.flags, "reference": pattern.reference,
                "version": versions[engine],
                "measured": measured, "run_id": run_id}

    def save(self) -> None:
        atomic_write(self.path, json.dumps({"format": FORMAT, "entries": self.entries}, indent=1, sort_keys=True))
