"""Pinned npm sets (folders of scripts/packages/npm such as `browser`: package.json + lock file),
installed on demand into the dependency folder ($STALLBENCH_DEPS, default .deps/) by
`scripts/bootstrap --npm SET` (from its lock file, integrity-checked). A family declares the sets it uses
(`npm_sets` in its description); `run` installs them before planning, and a set that cannot be had
(offline) leaves that family's benchmarks out with one line, as a missing Node line does."""
from . import installer, paths
from .catalogue import Benchmark, Family
from .node import deps_dir

SOURCES = paths.ROOT / "scripts" / "packages" / "npm"


def installed(name: str) -> bool:
    """The set is installed from its current lock file (what scripts/install-npm records)."""
    record = deps_dir() / "npm" / name / ".installed-lock"
    lock = SOURCES / name / "package-lock.json"
    return record.is_file() and lock.is_file() and record.read_bytes() == lock.read_bytes()


def install(names: list[str]) -> str:
    """Installs the sets not yet installed; returns "" or the installer's own complaint."""
    missing = [n for n in names if not installed(n)]
    if not missing:
        return ""
    outcome = installer.bootstrap(["--npm", ",".join(missing)])
    return "" if outcome.ok else outcome.reason


def provide(families: list[Family], selected: list[Benchmark]) -> None:
    """Installs the sets of the families that have a selected benchmark able to run; when that
    fails, those benchmarks become missing (the plan then skips them, saying why)."""
    for family in families:
        wanted = [b for b in family.benchmarks if b in selected and not b.missing]
        if not wanted or not family.npm_sets:
            continue
        if problem := install(family.npm_sets):
            for b in wanted:
                b.missing = f"its npm packages ({', '.join(family.npm_sets)}) could not be installed: {problem}"
