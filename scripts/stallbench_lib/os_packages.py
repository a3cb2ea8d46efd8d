"""The OS packages a command needs, installed by scripts/bootstrap from the lists in
scripts/packages/. The launcher installs only core.txt (enough to build every bench binary); each
command then asks for the lists of what it runs: `run` those its families declare (`os_packages` in
their description, e.g. regex: its engines), `trace --browser` the browser's. The test-only lists
(scripts/packages/test/) are scripts/test's alone."""
import subprocess
import sys

from . import children, paths
from .catalogue import Benchmark, Family
from .errors import UsageError

LISTS = paths.ROOT / "scripts" / "packages"
INSTALL_TIMEOUT_S = 1800
CORE = "core"
INSTALLING = "stallbench: installing"
PROGRESS = (INSTALLING, "stallbench: refreshing", "stallbench: notice")
TRACKING = "tracking"  # compare, history, calibrate, ab and --instructions: valgrind, the PostgreSQL client


def family_lists() -> list[str]:
    """Every list that belongs to a family: what a run of every family needs beyond core.txt."""
    return sorted(p.stem for p in LISTS.glob("*.txt") if p.stem not in (CORE, TRACKING))


def of(families: list[Family], selected: list[Benchmark]) -> list[str]:
    """The lists the families with a selected benchmark declare."""
    chosen = {b.family for b in selected}
    return sorted({name for f in families if f.name in chosen for name in f.os_packages})


def ensure(lists: list[str]) -> bool:
    """Installs what these lists name and this machine lacks (scripts/bootstrap --sets); returns
    whether anything was installed, so a caller can rebuild. What the installer says about its work
    is shown as it says it; a failure is one UsageError line."""
    if not lists:
        return False
    bootstrap = str(paths.ROOT / "scripts" / "bootstrap")
    # No separate --check first: the bootstrap itself returns at once, silently, when nothing is
    # missing (its remembered check), and says "installing" when it installs.
    last, installed, proc = "", False, None
    try:  # interrupted, the installer goes as apt-get would at a Ctrl-C in its terminal
        with children.stop_signals_held():  # an interruption lands inside the `try`, with proc set
            proc = children.start([bootstrap, "--sets", ",".join(lists)], memory_bytes=0, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
        for line in proc.stderr:
            if not line.strip():
                continue
            last = line.strip()
            installed = installed or last.startswith(INSTALLING)
            if last.startswith(PROGRESS):  # the failure's own line comes once, as the UsageError
                print(last, file=sys.stderr, flush=True)
        proc.wait(timeout=INSTALL_TIMEOUT_S)
    except BaseException:
        if proc is not None:
            children.kill(proc)
        raise
    children.forget(proc)
    if proc.returncode != 0:
        raise UsageError(f"the OS packages of {', '.join(lists)} could not be installed "
                         f"(scripts/bootstrap --sets {','.join(lists)}): {last.removeprefix('stallbench: ') or proc.returncode}")
    return installed
