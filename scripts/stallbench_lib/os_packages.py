"""The OS packages a command needs, installed by scripts/bootstrap from the lists in
scripts/packages/. The launcher installs only core.txt (enough to build every bench binary); each
command then asks for the lists of what it runs: `run` those its families declare (`os_packages` in
their description, e.g. regex: its engines), `trace --browser` the browser's. The test-only lists
(scripts/packages/test/) are scripts/test's alone."""
from . import installer, paths
from .catalogue import Benchmark, Family
from .errors import UsageError

LISTS = paths.ROOT / "scripts" / "packages"
CORE = "core"
TRACKING = "tracking"  # compare, history, calibrate, ab and --instructions: valgrind, the PostgreSQL client


def family_lists() -> list[str]:
    """Every list that belongs to a family: what a run of every family needs beyond core.txt."""
    return sorted(p.stem for p in LISTS.glob("*.txt") if p.stem not in (CORE, TRACKING))


def for_revisions() -> list[str]:
    """What `ab` and `bisect` install before building revisions: every family's list (each revision
    builds every family) and tracking.txt (its compiler cache, valgrind for --instructions). Nothing
    test-only: a revision's worktree is configured with its tests off (build.TESTS_OFF)."""
    return family_lists() + [TRACKING]


def of(families: list[Family], selected: list[Benchmark]) -> list[str]:
    """The lists the families with a selected benchmark declare."""
    chosen = {b.family for b in selected}
    return sorted({name for f in families if f.name in chosen for name in f.os_packages})


def ensure(lists: list[str]) -> bool:
    """Installs what these lists name and this machine lacks (scripts/bootstrap --sets); returns
    whether anything was installed, so a caller can rebuild. What the installer says about its work
    is shown as it says it (installer.py); a failure is one UsageError line after apt's own."""
    if not lists:
        return False
    # No separate --check first: the bootstrap itself returns at once, silently, when nothing is
    # missing (its remembered check), and says "installing" when it installs.
    outcome = installer.bootstrap(["--sets", ",".join(lists)])
    if not outcome.ok:
        raise UsageError(f"the OS packages of {', '.join(lists)} could not be installed "
                         f"(scripts/bootstrap --sets {','.join(lists)}): {outcome.reason}")
    return outcome.installed
