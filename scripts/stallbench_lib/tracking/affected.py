"""Which families a change can affect: the pull-request job measures those and no others.

Each changed path (`git diff --name-only BASE HEAD`) goes through these rules, the first that
applies deciding (docs/tracking.md, "Pull requests", shows each on this repository):

1. documentation, tests, CI definitions and stored results: no benchmark;
2. the build's definitions (any CMakeLists.txt, *.cmake, CMakePresets.json), the harness, the
   contract: every family;
3. a file in a family's Python folder (scripts/stallbench_lib/families/<family>/: its report
   section, analysis and commands): that family;
4. what a family declares (catalogue.py): its inputs' files (the regex catalogue), its npm sets and
   OS package lists under scripts/packages/, the pinned Node lines when it has Node cells;
5. anything else under scripts/, the orchestrator's shared code and setup: every family;
6. a file the Release build compiles or includes (the ninja graph, build_graph.py): the families of
   the bench binaries built from it; none when only other targets are (a helper no benchmark runs);
7. a path a bench binary's compile definitions name, or inside a folder they name (a folder of Node
   scripts it runs): that binary's family;
8. a file inside a folder bench binaries are built from (workloads/<family>/ holds a family's
   workload: its data files, pages, programs): the families of those binaries; else a file of
   workloads/<family>/: that family;
9. anything else: every family, to be safe, saying so.

The bench binaries' families come from their own declarations (--stallbench-describe); no family is
named here."""
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import build as builds, catalogue, families
from ..errors import UsageError
from . import build_graph

EVERY = "every family"
NOTHING_FOLDERS = ("docs/", "tests/", ".github/", "results/", "reports/", "scripts/packages/test/")
NOTHING_FILES = ("scripts/test", "scripts/nightly", "scripts/pull-request", ".gitignore", ".gitattributes")
EVERYTHING_FOLDERS = ("cmake/", "contract/", "benches/harness/")
BUILD_DEFINITIONS = ("CMakeLists.txt", "CMakePresets.json")
FAMILY_FOLDERS = "scripts/stallbench_lib/families/"
ORCHESTRATOR = "scripts/"
PACKAGES = "scripts/packages/"
WORKLOADS = "workloads"
NODE_LINES = ("scripts/packages/npm/node-lines.txt", "scripts/packages/npm/node-")


@dataclass(frozen=True)
class Decision:
    families: frozenset[str] | None  # None: every family
    why: str


@dataclass
class Affected:
    families: list[str]                 # what is measured, sorted
    everything: bool                    # every family (no --filter)
    why: dict[str, str] = field(default_factory=dict)        # path -> the rule that decided it
    reached: dict[str, list[str]] = field(default_factory=dict)  # path -> the families it reaches

    def ab_filter(self) -> str | None:
        """ab's --filter for these families (None: no filter, every benchmark)."""
        if self.everything or not self.families:
            return None
        return "^(" + "|".join(re.escape(f) for f in self.families) + ")/"

    def to_json(self) -> dict:
        return {"families": self.families, "everything": self.everything, "filter": self.ab_filter(),
                "paths": {p: {"families": self.reached[p], "why": self.why[p]} for p in self.why}}


class _Build:
    """The build the map reads, loaded on first need: a diff of documentation needs none."""

    def __init__(self, build: Path | Callable[[], Path]):
        self._path = build
        self._families = self._graph = None

    @property
    def path(self) -> Path:
        if callable(self._path):
            self._path = self._path()
        return self._path

    @property
    def families(self) -> list[catalogue.Family]:
        if self._families is None:
            self._families = catalogue.load(builds.bench_binaries(self.path))
        return self._families

    @property
    def graph(self) -> build_graph.Graph:
        if self._graph is None:
            self._graph = build_graph.load(self.path, [f.binary for f in self.families])
        return self._graph

    @property
    def source(self) -> Path:
        source = builds.configured_source(self.path)
        if source is None:
            raise UsageError(f"{self.path} has no CMake cache naming its source tree: not a configured build folder")
        return source

    def family_of(self, binaries: set[str]) -> frozenset[str]:
        return frozenset(f.name for f in self.families if f.binary.name in binaries)


def _family_folder(path: str, build: _Build) -> Decision | None:
    """A file in a family's folder reaches that family (None: not in one, e.g. families/__init__.py)."""
    parts = Path(path).relative_to(FAMILY_FOLDERS).parts
    if len(parts) < 2:
        return None
    named = frozenset(f.name for f in build.families if families.folder_name(f.name) == parts[0])
    return Decision(named, "the family's own Python (its section, analysis, commands)" if named else
                    "the Python of no benchmark family")


def _declared(path: str, build: _Build) -> Decision | None:
    """What the families declare: their inputs' files, npm sets, OS package lists, Node cells."""
    found: dict[str, set[str]] = {}  # what the path is -> the families declaring it
    for f in build.families:
        for i in f.inputs:
            if i.fallback.startswith("/") and _relative(i.fallback, build.source) == path:
                found.setdefault(f"the input `{i.name}` declared by", set()).add(f.name)
        for npm in f.npm_sets:
            if path.startswith(f"{PACKAGES}npm/{npm}/"):
                found.setdefault(f"the npm set `{npm}` declared by", set()).add(f.name)
        for listed in f.os_packages:
            if path == f"{PACKAGES}{listed}.txt":
                found.setdefault(f"the OS package list `{listed}` declared by", set()).add(f.name)
        node_cells = any(p.node_values for b in f.benchmarks for p in b.params)
        if node_cells and (path == NODE_LINES[0] or path.startswith(NODE_LINES[1])):
            found.setdefault("a pinned Node line, run by the Node cells of", set()).add(f.name)
    if not found:
        return None
    return Decision(frozenset().union(*found.values()),
                    "; ".join(f"{what} {', '.join(sorted(names))}" for what, names in sorted(found.items())))


def _relative(path: str, source: Path) -> str | None:
    try:
        return str(Path(path).resolve().relative_to(source.resolve()))
    except ValueError:
        return None


def _from_graph(path: str, build: _Build) -> Decision | None:
    graph = build.graph
    if binaries := graph.binaries_built_from(path):
        return Decision(build.family_of(binaries), f"compiled into {', '.join(sorted(binaries))}")
    if path in graph.compiled:
        return Decision(frozenset(), "compiled into no bench binary (a tool or helper no benchmark runs)")
    if binaries := graph.binaries_naming(path):
        return Decision(build.family_of(binaries), f"named by the build of {', '.join(sorted(binaries))} "
                                                   "(a file or folder it reads at run time)")
    folder = Path(path).parent
    while str(folder) not in (".", WORKLOADS):  # workloads/ itself holds every family's folder
        if binaries := graph.binaries_built_under(str(folder)):
            return Decision(build.family_of(binaries), f"in {folder}/, a folder the build compiles "
                                                       f"{', '.join(sorted(binaries))} from")
        folder = folder.parent
    return None


def _family_workloads(path: str, build: _Build) -> Decision | None:
    """A file of workloads/<family>/ that no build step reads (the doctor's folder only declares
    what its bench links): that family."""
    parts = Path(path).parts
    if len(parts) < 3 or parts[0] != WORKLOADS:
        return None
    named = frozenset(f.name for f in build.families if families.folder_name(f.name) == parts[1])
    return Decision(named, f"in {WORKLOADS}/{parts[1]}/, the family's workload folder") if named else None


def decide(path: str, build: _Build) -> Decision:
    """The rule (module docstring) that decides one changed path."""
    name = Path(path).name
    if path.startswith(NOTHING_FOLDERS) or path in NOTHING_FILES or path.endswith(".md"):
        return Decision(frozenset(), "documentation, tests or CI: no benchmark reads it")
    if path.startswith(EVERYTHING_FOLDERS) or name in BUILD_DEFINITIONS or name.endswith(".cmake"):
        return Decision(None, "the build, the harness or the contract: every benchmark goes through it")
    if path.startswith(FAMILY_FOLDERS) and (folder := _family_folder(path, build)):
        return folder
    if path.startswith(PACKAGES) and (declared := _declared(path, build)):
        return declared
    if path.startswith(ORCHESTRATOR):
        return Decision(None, "the orchestrator's shared code or setup: every benchmark runs through it")
    if declared := _declared(path, build):
        return declared
    return (_from_graph(path, build) or _family_workloads(path, build)
            or Decision(None, "not mapped to a family: every family, to be safe"))


def affected(paths: list[str], build: Path | Callable[[], Path]) -> Affected:
    """The families the changed `paths` (relative to the repository) can affect, by the build at
    `build` (read, or made when it is a function, only when a path needs it)."""
    source = _Build(build)
    decisions = {p: decide(p, source) for p in paths}
    everything = any(d.families is None for d in decisions.values())
    every = sorted(f.name for f in source.families) if everything else []
    reached = {p: every if d.families is None else sorted(d.families) for p, d in decisions.items()}
    families = every or sorted({f for names in reached.values() for f in names})
    return Affected(families, everything, {p: d.why for p, d in decisions.items()}, reached)
