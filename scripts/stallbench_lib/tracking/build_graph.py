"""What a Release build's ninja graph says about its bench binaries, for the pull-request job's path
→ family map (affected.py): which files of the source tree each binary is built from — its sources,
the headers its objects included (ninja's deps log), the sources of the programs it waits for
(order-only inputs: the regex family's Go, Java and Rust servers) — and which source paths its
compile definitions name (a folder of Node scripts, a catalogue it reads at run time). Paths are
relative to the source tree the build was configured from, so the graph of any checkout answers for
a diff's paths."""
import json
import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import build as builds, children
from ..errors import UsageError

NINJA_TIMEOUT_S = 120


@dataclass(frozen=True)
class Graph:
    built_from: dict[str, frozenset[str]]  # binary file name -> source paths it is built from
    named: dict[str, frozenset[str]]       # binary file name -> source paths its compile definitions name
    compiled: frozenset[str]               # every source path the build compiles or includes, for any target

    def binaries_built_from(self, path: str) -> set[str]:
        return {b for b, paths in self.built_from.items() if path in paths}

    def binaries_naming(self, path: str) -> set[str]:
        """Binaries whose definitions name `path` or a folder holding it."""
        return {b for b, named in self.named.items() if any(path == n or path.startswith(n + "/") for n in named)}

    def binaries_built_under(self, folder: str) -> set[str]:
        return {b for b, paths in self.built_from.items() if any(p.startswith(folder + "/") for p in paths)}


def _ninja(build: Path, *tool: str) -> str:
    try:
        done = children.run(["ninja", "-C", str(build), "-t", *tool], text=True, timeout_s=NINJA_TIMEOUT_S)
    except FileNotFoundError:
        raise UsageError("ninja is not installed: the path → family map reads the build graph with it "
                         "(Debian: ninja-build)") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"ninja -t {tool[0]} in {build} did not answer within {NINJA_TIMEOUT_S} s") from None
    if done.returncode != 0:
        raise UsageError(f"ninja -t {' '.join(tool)} in {build} failed: {done.stderr.strip() or done.returncode}")
    return done.stdout


class _Paths:
    """Paths as ninja writes them (relative to the build folder, or absolute) to paths relative to
    the source tree; None for what lies outside it or inside the build folder (generated files)."""

    def __init__(self, build: Path, source: Path):
        self.build, self.source = os.path.realpath(build), os.path.realpath(source)

    def relative(self, path: str) -> str | None:
        full = os.path.realpath(os.path.join(self.build, path))
        if full == self.build or full.startswith(self.build + os.sep):
            return None
        if not full.startswith(self.source + os.sep):
            return None
        return os.path.relpath(full, self.source)


def _deps(text: str) -> dict[str, list[str]]:
    """ninja -t deps: 'object: #deps N, ...' then the files it included, indented, one a line."""
    deps: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line and not line[0].isspace() and ": #deps" in line:
            current = deps.setdefault(line.split(": #deps", 1)[0], [])
        elif line.strip() and current is not None:
            current.append(line.strip())
    return deps


def _defined_paths(command: str, where: _Paths) -> set[str]:
    """Source paths a compile command's -DNAME="path" definitions name."""
    found = set()
    for word in shlex.split(command):
        if word.startswith("-D") and "=" in word:
            value = word.split("=", 1)[1].strip('"')
            if value.startswith("/") and (path := where.relative(value)):
                found.add(path)
    return found


def load(build: Path, binaries: list[Path]) -> Graph:
    """The graph of `build` for `binaries` (its benches/bench_* files)."""
    source = builds.configured_source(build)
    if source is None:
        raise UsageError(f"{build} has no CMake cache naming its source tree: not a configured build folder")
    where = _Paths(build, source)
    deps = _deps(_ninja(build, "deps"))
    entries = json.loads(_ninja(build, "compdb"))
    commands = {entry["output"]: entry["command"] for entry in entries}
    compiled = {p for p in map(where.relative, [e["file"] for e in entries] + [f for fs in deps.values() for f in fs])
                if p}
    built_from, named = {}, {}
    for binary in binaries:
        target = os.path.relpath(binary, build)
        inputs = _ninja(build, "inputs", target).split()
        paths = {p for i in inputs for p in [where.relative(i), *map(where.relative, deps.get(i, []))] if p}
        built_from[binary.name] = frozenset(paths)
        named[binary.name] = frozenset(p for i in inputs if i in commands for p in _defined_paths(commands[i], where))
    return Graph(built_from, named, frozenset(compiled))
