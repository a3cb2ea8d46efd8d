"""The Python side's layering, read from its imports (every `import` and `from ... import`, also
inside functions): one folder per family over a core, and the tracking product beside them.

- a family's folder (stallbench_lib/families/<family>/) imports the core and the families seam
  (stallbench_lib/families/__init__.py), never another family's folder, never tracking;
- the tracking product (stallbench_lib/tracking/) imports the core, never a family;
- the core (everything else) imports no family, and no tracking module except from the command
  line (cli.py finds tracking's commands) and the core's command modules (`run --store` appends to
  the history store).

The core reaches a family only through the seam, by the family's name from the results contract
or by a hook's module name (families.find, families.hooks); docs/architecture.md."""
import ast
import importlib.util
from pathlib import Path

import pytest

PACKAGE = "stallbench_lib"
SEAM = f"{PACKAGE}.families"
LIB = Path(importlib.util.find_spec(PACKAGE).origin).parent


def modules() -> dict[str, Path]:
    found = {}
    for path in LIB.rglob("*.py"):
        parts = path.relative_to(LIB.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules `name` imports (a name imported from a package counts as its module
    when there is one, else as the package)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.startswith(PACKAGE) and m != name}


def layer(module: str) -> str:
    """`family:<name>`, `seam`, `tracking`, `core-command` or `core`."""
    parts = module.split(".")
    if module == SEAM:
        return "seam"
    if parts[1:2] == ["families"]:
        return f"family:{parts[2]}"
    if parts[1:2] == ["tracking"]:
        return "tracking"
    return "core-command" if parts[1:2] in (["commands"], ["cli"]) else "core"


def allowed(importer: str, imported: str) -> bool:
    a, b = layer(importer), layer(imported)
    if b.startswith("family:"):
        return a == b
    if b == "tracking":
        return a in ("tracking", "core-command")
    return True


def violations(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} imports {b} ({layer(a)} -> {layer(b)})"
                  for a, targets in graph.items() for b in targets if not allowed(a, b))


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def test_families_import_the_core_only_and_the_core_no_family():
    assert violations(graph()) == []


def test_every_family_of_the_cpp_side_has_its_folder_and_no_folder_is_loose():
    from stallbench_lib import families
    folders = set(families.names())
    assert {"browser", "doctor", "json", "pool", "pool_sweep", "regex", "report", "starvation"} <= folders
    loose = [p.name for p in (LIB / "families").glob("*.py") if p.name != "__init__.py"]
    assert loose == [], "a family's module belongs in its folder, families/<family>/"


@pytest.mark.parametrize("importer, imported", [
    ("stallbench_lib.families.doctor.session", "stallbench_lib.families.pool_sweep.app_run"),  # family -> family
    ("stallbench_lib.tracking.commands.merge", "stallbench_lib.families.regex.merge"),       # tracking -> family
    ("stallbench_lib.shard_plan", "stallbench_lib.tracking.store"),                          # core -> tracking
    ("stallbench_lib.rendering.render", "stallbench_lib.families.json.section"),             # core -> family
    ("stallbench_lib.families.regex.scan_shards", "stallbench_lib.tracking.store"),          # family -> tracking
])
def test_each_layering_mistake_is_named(importer, imported):
    assert violations({importer: {imported}}) == [
        f"{importer} imports {imported} ({layer(importer)} -> {layer(imported)})"]


def test_what_the_layers_allow():
    assert violations({"stallbench_lib.commands.run": {"stallbench_lib.tracking.store"},
                       "stallbench_lib.rendering.render": {SEAM},
                       "stallbench_lib.families.regex.section": {"stallbench_lib.rendering.table", SEAM},
                       "stallbench_lib.tracking.ab_session": {"stallbench_lib.plan"}}) == []


def test_the_import_reader_resolves_relative_imports_and_functions_bodies(tmp_path):
    source = tmp_path / "section.py"
    source.write_text("from ... import paths\nfrom ..json import section\nfrom . import curves as c\n"
                      "def f():\n    from ...tracking.store import Store\n")
    known = {"stallbench_lib.paths", "stallbench_lib.families.json.section", "stallbench_lib.families.regex.curves",
             "stallbench_lib.tracking.store"}
    assert imports("stallbench_lib.families.regex.section", source, known) == known
