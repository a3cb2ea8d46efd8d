"""The regex engines as the bench declares them: workloads/regex/engines.cc's table, read through
the describe contract (`tables`: `engines`) or a run's meta.json. Which engines run once per Node
line (node@26), which share an implementation and so vote once on a right answer (pcre2-jit with
pcre2, every V8 engine and line), which engine speaks for a language (the reference of regexes
found in JavaScript), which run in the bench's own process. Python names no engine."""
from dataclasses import dataclass

from ... import runtimes
from ...errors import UsageError

TABLE = "engines"


@dataclass(frozen=True)
class Engines:
    rows: tuple[dict, ...]

    @classmethod
    def from_family(cls, family) -> "Engines":
        return cls(tuple(family.tables.get(TABLE, [])))

    @classmethod
    def from_meta(cls, meta: dict, family: str = "regex") -> "Engines":
        """A run's engines; none for a run made before the bench declared them (every engine is
        then its own implementation)."""
        return cls(tuple(meta.get("tables", {}).get(f"{family}/{TABLE}", [])))

    def _row(self, engine: str) -> dict:
        base = runtimes.base(engine)  # node@26 -> node
        return next((r for r in self.rows if r["name"] == base), {"name": base})

    def names(self) -> list[str]:
        """Every engine the bench knows, available here or not."""
        return [r["name"] for r in self.rows]

    def per_node_line(self) -> list[str]:
        return [r["name"] for r in self.rows if r.get("per_node_line")]

    def implementation(self, engine: str) -> str:
        """pcre2-jit -> pcre2, node-linear@26 -> node: engines that vote once."""
        return self._row(engine).get("implementation") or runtimes.base(engine)

    def measured_as(self, fallbacks: dict[str, dict[str, str]],
                    engines: list[str] | None = None) -> dict[tuple[str, str], str]:
        """(variant, engine) -> the engine of `engines` that runs the variant the same way: an engine
        that falls back on a variant (node-linear@26 on a pattern V8's linear engine does not take,
        `fallbacks`: verify.fallbacks) runs its implementation's own algorithm on the same Node line
        (node@26), so a scan measures that one once for both. `engines`: those measured (default: any)."""
        found = {}
        for variant, fell in fallbacks.items():
            for engine in fell:
                at_line = runtimes.line(engine)
                same = runtimes.of_line(at_line, self.implementation(engine)) if at_line else self.implementation(engine)
                if same != engine and (engines is None or same in engines):
                    found[(variant, engine)] = same
        return found

    def automata(self, engines: list[str] | None = None) -> frozenset[str]:
        """The engines (of `engines`, default all) linear by construction: kind automaton."""
        return frozenset(e for e in (engines if engines is not None else self.names())
                         if self._row(e).get("kind") == "automaton")

    def in_process(self, engine: str) -> bool:
        """An adapter in the bench's own process (no program to start)."""
        return self._row(engine).get("runs_in") == "process"

    def for_language(self, language: str) -> str:
        """The engine whose answers are right for regexes written in `language`: its own
        implementation's engine (node for JavaScript, not node-linear)."""
        found = [r["name"] for r in self.rows if r.get("language") == language and r["implementation"] == r["name"]]
        if not found:
            raise UsageError(f"the regex bench declares no engine for {language} (engines: {', '.join(self.names())})")
        return found[0]

    def versions(self, engines: list[str], declared: dict[str, str], nodes) -> dict[str, str]:
        """engine -> its version: the bench's declared one (meta.json `versions`, by the engine's
        library), or the Node line's for an engine run per line (node@26)."""
        by_line = {n.line: n.version for n in nodes}
        found = {}
        for engine in engines:
            row = self._row(engine)
            line = runtimes.line(engine)
            found[engine] = by_line.get(line, "") if row.get("per_node_line") else declared.get(row.get("library", ""), "")
        return found

    def check_reference(self, reference: str | None, label: str) -> None:
        """UsageError naming `label` when `reference` is not an engine the bench knows."""
        if reference is not None and reference not in self.names():
            raise UsageError(f"{label}: reference {reference!r} is not a regex engine (valid: {', '.join(self.names())})")
