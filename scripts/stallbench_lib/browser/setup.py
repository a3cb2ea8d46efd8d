"""What driving a browser needs, as bench_browser declares it (its `browsers` table: each browser's
name, label, executable found on this machine, driving library and why it is missing): the browser,
its pinned driving library (npm set `browser`, installed on demand) and a Node to run the driver
(the default Node choice)."""
import os
from dataclasses import dataclass
from pathlib import Path

from .. import build, catalogue, node as nodejs, npm_sets, os_packages, paths, plan
from ..errors import UsageError

BROWSER_DIR = paths.ROOT / "workloads" / "browser"
TABLE = "browsers"
PARAM = "browser"  # the benchmarks' parameter whose values are the table's names
ALL = "all"


@dataclass(frozen=True)
class Driving:
    browser: str      # the browser parameter's value: the drivers' --browser
    label: str
    node: str
    node_version: str
    executable: str
    library: Path


def declared(build_dir: Path) -> list[dict]:
    """The rows of bench_browser's `browsers` table, after installing the OS packages that bring
    them (unless a browser's path is given through its environment variable)."""
    binary = build.bench_binaries(build_dir).get("browser")
    if binary is None:
        raise UsageError(f"bench_browser is not built in {build_dir}: run without --no-build")
    rows = catalogue.describe(binary).tables.get(TABLE, [])
    if not all(os.environ.get(row["env"]) is not None for row in rows):
        if os_packages.ensure(["browser"]):  # something was installed: ask again where it is
            rows = catalogue.describe(binary).tables.get(TABLE, [])
    return rows


def chosen(rows: list[dict], given: str) -> list[dict]:
    """The rows `given` names: one browser's name, `all` (every one the table declares) or "" (the
    first declared)."""
    names = [row["name"] for row in rows]
    if given == "":
        return rows[:1]
    if given == ALL:
        return rows
    if given not in names:
        raise UsageError(f"--browser {given}: unknown browser (valid: {', '.join(names + [ALL])})")
    return [row for row in rows if row["name"] == given]


def library_dir(row: dict) -> Path:
    return nodejs.deps_dir() / "npm" / "browser" / "node_modules" / row["library"]


def driving(what: str, row: dict) -> Driving:
    """Everything needed to drive the browser of `row`, installing the npm set when it is missing.
    Raises UsageError naming what is missing (`what` says which command wanted it)."""
    if row["missing"]:
        raise UsageError(f"{what}: {row['missing']}")
    if problem := npm_sets.install(["browser"]):
        raise UsageError(f"{what}: {row['library']} (npm set browser) could not be installed: {problem}")
    node, why_not = nodejs.find()
    if node is None:
        raise UsageError(f"{what}: no Node to run the browser driver: {why_not}")
    return Driving(row["name"], row["label"], node.path, node.version, row["path"], library_dir(row))


def driver_argv(d: Driving, driver: str) -> list[str]:
    """The command line of driver/<driver>.mjs for this browser."""
    return [d.node, str(BROWSER_DIR / "driver" / driver), "--browser", d.browser, "--executable", d.executable,
            "--library", str(d.library), "--pages", str(BROWSER_DIR / "pages")]


def left_out(families: list[catalogue.Family], selected: list[catalogue.Benchmark], tier: str,
             sets: dict[str, list[str]]) -> list[str]:
    """One notice per browser that is not installed but that the selected benchmarks' grid (the
    profile's, or --set's) asks for: its cells are dropped by the benchmarks' own validity. Without
    any browser the benchmarks are missing and plan skips them in its own line instead."""
    lines = []
    for family in families:
        chosen = [b for b in selected if b.family == family.name and not b.missing and b.param(PARAM) is not None]
        for row in family.tables.get(TABLE, []):
            names = [b.name for b in chosen
                     if row["name"] in plan.sets_for(b, sets).get(PARAM, b.param(PARAM).grid(tier))]
            if row["missing"] and names:
                lines.append(f"notice: {family.name}: {row['name']} cells left out ({', '.join(names)}): "
                             f"{row['missing']}")
    return lines

