"""The files written from the regex engine table (workloads/regex/engines.cc, exported by the bench
as its `engines` table), because they are read where no build exists yet, or by people: the engines'
lines of scripts/packages/regex.txt (scripts/bootstrap installs them; CMake's install hint for a
missing engine reads them back), and the engine table of docs/regex.md. scripts/write-generated
rewrites them (stallbench_lib.generated_files asks every family's generated.py);
tests/python/test_regex_engine_table.py fails while either differs from the table."""
import re
from pathlib import Path

from ... import paths
from ...errors import UsageError
from ...rendering import table
from .engines import TABLE

SOURCE = paths.ROOT / "workloads" / "regex" / "engines.cc"  # the one hand-written declaration
PACKAGES = paths.ROOT / "scripts" / "packages" / "regex.txt"
DOCS = paths.ROOT / "docs" / "regex.md"
GENERATED = (PACKAGES, DOCS)

_PACKAGES_BEGIN = "# generated from the engine table of workloads/regex/engines.cc by scripts/write-generated: edit that table"
_PACKAGES_END = "# end of the engines' packages"
_DOCS_BEGIN = "<!-- generated from the engine table of workloads/regex/engines.cc by scripts/write-generated: edit that table, not this one -->"
_DOCS_END = "<!-- end of the generated engine table -->"
_FOR = "# for "  # what CMake's stallbench_engine_packages looks for on a package line
# A Debian package name (Debian Policy 5.6.1); an item of `package` is one, or alternatives joined by `|`.
_DEBIAN_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")


def rows(families) -> list[dict]:
    for family in families:
        if TABLE in family.tables and family.name == "regex":
            return family.tables[TABLE]
    raise UsageError(f"no bench binary declares the regex engine table (`{TABLE}`): is the build complete?")


def items(row: dict) -> list[str]:
    """The apt items of one engine's `package` (`cargo|cargo-web librust-regex+default-dev|...`)."""
    found = row["package"].split()
    for item in found:
        if not all(_DEBIAN_NAME.fullmatch(name) for name in item.split("|")):
            raise UsageError(f"regex engine {row['name']}: package item {item!r} is not a Debian package name "
                             "or alternatives joined by | (workloads/regex/engines.cc)")
    return found


def package_lines(engines: list[dict]) -> list[str]:
    """One line per apt item, naming every engine it brings, in the table's order."""
    needed: dict[str, list[str]] = {}
    for row in engines:
        for item in items(row):
            needed.setdefault(item, []).append(row["name"])
    width = max((len(item) for item in needed), default=0)
    return [f"{item:<{width}}  {_FOR}{', '.join(names)}" for item, names in needed.items()]


def _between(text: str, begin: str, end: str, replacement: str, path: Path) -> str:
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise UsageError(f"{path.relative_to(paths.ROOT)} has lost the markers of its generated engine lines")
    return text[:start] + replacement + text[stop + len(end):]


def packages_text(engines: list[dict], text: str) -> str:
    return _between(text, _PACKAGES_BEGIN, _PACKAGES_END,
                    "\n".join([_PACKAGES_BEGIN, *package_lines(engines), _PACKAGES_END]), PACKAGES)


def _engine_cell(row: dict) -> str:
    return f"`{row['name']}@LINE`" if row.get("per_node_line") else f"`{row['name']}`"


def _package_cell(row: dict) -> str:
    if not row["package"]:
        return "none: the Node lines, from npm"
    return ", ".join(" or ".join(f"`{name}`" for name in item.split("|")) for item in items(row))


def docs_table(engines: list[dict]) -> str:
    header = ["engine", "what it is", "language", "kind", "Debian package", "its own guard", "refuses at compile time"]
    body = [[_engine_cell(r), r["doc"], r["language"], r["kind"], _package_cell(r), r["guard"], r["refuses"]]
            for r in engines]
    return "\n".join([_DOCS_BEGIN, "", *table.lines(header, body), "", _DOCS_END])


def docs_text(engines: list[dict], text: str) -> str:
    return _between(text, _DOCS_BEGIN, _DOCS_END, docs_table(engines), DOCS)


def generated(families) -> dict[Path, str]:
    """Each generated file -> the text the engine table makes of it."""
    engines = rows(families)
    return {PACKAGES: packages_text(engines, PACKAGES.read_text()), DOCS: docs_text(engines, DOCS.read_text())}
