"""The folders of workloads/ include one another without a circle: each folder is one job (a family,
or what families share), and a folder that includes from one that includes back from it is two
jobs tangled. The graph is read from the C++ sources' `#include "..."` lines, as the compiler
resolves them (beside the including file, else from the repository's root)."""
import re
from pathlib import Path

from conftest import ROOT

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
SOURCES = {".h", ".hpp", ".cc", ".cpp", ".in"}


def folder_graph(root: Path) -> dict[str, set[str]]:
    """workloads/<folder> -> the other workloads folders its sources include from."""
    workloads = root / "workloads"
    graph: dict[str, set[str]] = {}
    for source in sorted(workloads.rglob("*")):
        if source.suffix not in SOURCES or not source.is_file():
            continue
        folder = source.relative_to(workloads).parts[0]
        graph.setdefault(folder, set())
        for written in INCLUDE.findall(source.read_text(errors="replace")):
            for base in (source.parent, root):
                target = (base / written).resolve()
                if target.is_file():
                    break
            else:
                continue  # generated in the build tree (named_mixes.h, ...): inside its own folder
            if target.is_relative_to(workloads.resolve()):
                other = target.relative_to(workloads.resolve()).parts[0]
                if other != folder:
                    graph[folder].add(other)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The folders that reach one another (Tarjan's strongly connected components of more than one
    folder, or a folder including itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_folder_of_workloads_includes_from_one_that_includes_back():
    graph = folder_graph(ROOT)
    assert any(graph.values()), "no include between workloads folders was read: the reader is broken"
    found = cycles(graph)
    assert not found, "workloads folders that include from one another: " + "; ".join(
        " <-> ".join(c) + " (" + ", ".join(f"{a} -> {b}" for a in c for b in sorted(graph[a]) if b in c) + ")"
        for c in found)


def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)


def test_a_circle_between_two_folders_is_found(tmp_path):
    _write(tmp_path, "workloads/pool/job.h", '#include "../loop/node_process.h"\n')
    _write(tmp_path, "workloads/loop/node_process.h", "#pragma once\n")
    _write(tmp_path, "workloads/loop/runtime.h", '#include "node_process.h"\n#include "../pool/job.h"\n')
    _write(tmp_path, "workloads/common/rss.h", "#pragma once\n")
    _write(tmp_path, "workloads/json/parse.cc", '#include "../common/rss.h"\n#include "workloads/pool/job.h"\n'
                                                 '#include "generated.h"\n#include <vector>\n')
    graph = folder_graph(tmp_path)
    assert graph == {"pool": {"loop"}, "loop": {"pool"}, "common": set(), "json": {"common", "pool"}}
    assert cycles(graph) == [["loop", "pool"]]


def test_a_longer_circle_is_found_and_a_chain_is_not():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _without_comments(path: Path) -> str:
    return "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())


def test_no_family_is_named_where_the_build_finds_families():
    """Adding a family is its workloads/ folder, its benches/ file and its Python folder: the two
    CMake files that would otherwise list families find them instead (cmake/family.cmake)."""
    from conftest import BUILD
    families = [p.name.removeprefix("bench_") for p in (BUILD / "benches").glob("bench_*") if p.is_file()]
    assert len(families) >= 8
    for listing in (ROOT / "workloads" / "CMakeLists.txt", ROOT / "benches" / "CMakeLists.txt"):
        text = _without_comments(listing)
        named = [f for f in families if re.search(rf"(?<![\w/]){re.escape(f)}(?![\w])", text)]
        assert named == [], f"{listing.relative_to(ROOT)} names the families {named}"
    declared = {m.group(1) for p in (ROOT / "workloads").glob("*/CMakeLists.txt")
                for m in re.finditer(r"stallbench_family_bench\((\w+)", p.read_text())}
    assert declared == set(families)
