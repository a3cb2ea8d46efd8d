"""`stallbench --version`: the project's version and commit, and the build's libraries with their
versions as the bench binaries declare them (nothing is built to answer)."""
import re

from . import build, catalogue, meta, paths
from .errors import UsageError


def project_version() -> str:
    """The version declared in the top-level CMakeLists.txt (`project(stallbench VERSION ...)`)."""
    match = re.search(r"project\(stallbench\s+VERSION\s+([0-9.]+)", (paths.ROOT / "CMakeLists.txt").read_text())
    return match.group(1) if match else "unknown"


def libraries(build_dir) -> dict[str, str]:
    """library -> version over every family of the build; a library two families report differently
    shows both."""
    found: dict[str, set[str]] = {}
    for family in catalogue.load(build.bench_binaries(build_dir)):
        for library, version in family.versions.items():
            found.setdefault(library, set()).add(version)
    return {library: " / ".join(sorted(versions)) for library, versions in sorted(found.items())}


def text() -> str:
    git = meta.git_info()
    commit = f"commit {git['short']}{', modified' if git['dirty'] else ''}" if git["commit"] else "no git commit"
    lines = [f"stallbench {project_version()} ({commit})"]
    build_dir = paths.build_dir()
    try:
        found = libraries(build_dir)
    except UsageError as e:
        if not (build_dir / "benches").is_dir():
            return "\n".join(lines + [f"build {build_dir}: not built yet (scripts/stallbench list builds it)"])
        return "\n".join(lines + [f"build {build_dir}: {e}"])
    lines.append(f"build {build_dir} ({meta.build_type(build_dir) or 'unknown type'}):")
    width = max(map(len, found), default=0)
    lines += [f"  {library:<{width}}  {version}" for library, version in found.items()]
    return "\n".join(lines)
