"""The optional dependencies a build has and lacks, as CMake declared and found them
(cmake/optional.cmake writes <build>/optional-dependencies.json). A missing one is a notice, one
line on stderr where the user sees it (`run`, `regex`, `list`), printed once the command's input
has been accepted: never part of an error message. A library installed after the build was
configured is found by the next build (CMake watches the folders it would appear in); with
--no-build the notice says the build may be behind."""
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

FILE = "optional-dependencies.json"
FORMAT = 1


@dataclass(frozen=True)
class Dependency:
    name: str
    family: str
    kind: str  # engine, parser, tool
    how: str  # how CMake looks for it
    install: str  # the package(s) that bring it
    found: bool
    hidden: bool  # installed, but left out on purpose (STALLBENCH_WITHOUT)


def load(build_dir: Path) -> tuple[list[Dependency], list[Path]]:
    """(the dependencies, the folders CMake watches); nothing for a build that predates the file."""
    path = build_dir / FILE
    if not path.exists():
        return [], []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UsageError(f"{path}: unreadable ({e}); reconfigure the build (cmake --preset release)") from None
    if not isinstance(data, dict) or data.get("version") != FORMAT:
        raise UsageError(f"{path}: format {data.get('version') if isinstance(data, dict) else '?'} is not {FORMAT}, "
                         "the one this command reads; reconfigure the build (cmake --preset release)")
    fields = Dependency.__dataclass_fields__
    return ([Dependency(**{k: d[k] for k in fields}) for d in data["dependencies"]],
            [Path(p) for p in data["watched"]])


def behind(build_dir: Path, watched: list[Path]) -> bool:
    """A folder where libraries appear changed after the build was configured."""
    try:
        configured = (build_dir / FILE).stat().st_mtime
        return any(p.exists() and p.stat().st_mtime > configured for p in watched)
    except OSError:
        return False


def notices(build_dir: Path, families: set[str] | None = None, no_build: bool = False) -> list[str]:
    """One line per optional dependency of these families (None: all) that this build lacks."""
    dependencies, watched = load(build_dir)
    lines = []
    for d in dependencies:
        if d.found or (families is not None and d.family not in families):
            continue
        why = "left out by STALLBENCH_WITHOUT" if d.hidden else f"{d.how} not found; install {d.install}"
        lines.append(f"notice: {d.family} {d.kind} {d.name} is not in this build ({why})")
    if lines and no_build and behind(build_dir, watched):
        lines.append("notice: libraries were installed after this build was configured; run without --no-build "
                     "to build with them")
    return lines


def say(build_dir: Path, families: set[str] | None = None, no_build: bool = False) -> None:
    for line in notices(build_dir, families, no_build):
        print(f"stallbench: {line}", file=sys.stderr, flush=True)
