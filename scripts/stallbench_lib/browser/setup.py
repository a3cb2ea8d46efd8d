"""What driving Chromium needs, found the way bench_browser finds it (workloads/browser/setup.cc):
Chromium ($STALLBENCH_CHROMIUM, else `chromium` on PATH), the pinned playwright-core (npm set
`browser`, installed on demand) and a Node to run the driver (the default Node choice)."""
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import node as nodejs, npm_sets, os_packages, paths
from ..errors import UsageError

BROWSER_DIR = paths.ROOT / "workloads" / "browser"
NO_CHROMIUM = "no Chromium (install Debian's chromium: scripts/bootstrap; or set STALLBENCH_CHROMIUM to a Chromium binary)"


@dataclass(frozen=True)
class Driving:
    node: str
    node_version: str
    chromium: str
    playwright: Path


def find_chromium() -> str | None:
    given = os.environ.get("STALLBENCH_CHROMIUM")
    if given is not None:
        return given if given not in ("", "none") and os.access(given, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def playwright_dir() -> Path:
    return nodejs.deps_dir() / "npm" / "browser" / "node_modules" / "playwright-core"


def driving(what: str) -> Driving:
    """Everything needed to drive Chromium, installing playwright-core when it is missing. Raises
    UsageError naming what is missing (`what` says which command wanted it)."""
    if os.environ.get("STALLBENCH_CHROMIUM") is None:
        os_packages.ensure(["browser"])  # Debian's chromium: this family's package list
    chromium = find_chromium()
    if chromium is None:
        raise UsageError(f"{what}: {NO_CHROMIUM}")
    if problem := npm_sets.install(["browser"]):
        raise UsageError(f"{what}: playwright-core (npm set browser) could not be installed: {problem}")
    node, why_not = nodejs.find()
    if node is None:
        raise UsageError(f"{what}: no Node to run the browser driver: {why_not}")
    return Driving(node.path, node.version, chromium, playwright_dir())
