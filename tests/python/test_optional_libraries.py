"""Optional dependencies (cmake/optional.cmake): declared once in CMake, hidden on request, picked up by
the next build when installed later, and turned into notice lines by the orchestrator.

The reconfigure test builds a tiny project that uses the project's own module with a stand-in
library: a pkg-config file that "appears" between two builds, in a folder of PKG_CONFIG_PATH."""
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD, ROOT, stallbench_command
from stallbench_lib import optional
from stallbench_lib.errors import UsageError

PROJECT = """cmake_minimum_required(VERSION 3.22)
project(standin LANGUAGES C)
include({module})
find_package(PkgConfig REQUIRED)
stallbench_find_pkg_config(STANDIN standin-library)
stallbench_optional(standin FAMILY demo KIND engine HOW "standin-library (pkg-config)" INSTALL standin-dev FOUND STANDIN_FOUND)
add_custom_target(nothing ALL)
stallbench_optional_finish()
"""
PC = "Name: standin-library\nDescription: a stand-in\nVersion: 1.0\nCflags:\nLibs:\n"


def _project(tmp_path: Path) -> tuple[Path, Path, dict]:
    source, build, pc = tmp_path / "src", tmp_path / "build", tmp_path / "pkgconfig"
    source.mkdir()
    pc.mkdir()
    (source / "CMakeLists.txt").write_text(PROJECT.format(module=ROOT / "cmake" / "optional.cmake"))
    return source, build, {**os.environ, "PKG_CONFIG_PATH": str(pc)}


def _found(build: Path) -> dict[str, bool]:
    data = json.loads((build / optional.FILE).read_text())
    assert data["version"] == optional.FORMAT
    return {d["name"]: d["found"] for d in data["dependencies"]}


def _cmake(*args, env) -> None:
    done = subprocess.run(["cmake", *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_library_installed_after_configuring_is_found_by_the_next_build(tmp_path):
    source, build, env = _project(tmp_path)
    _cmake("-S", str(source), "-B", str(build), "-G", "Ninja", env=env)
    assert _found(build) == {"standin": False}
    _cmake("--build", str(build), env=env)  # nothing changed: no reconfigure, still absent
    assert _found(build) == {"standin": False}
    (tmp_path / "pkgconfig" / "standin-library.pc").write_text(PC)
    _cmake("--build", str(build), env=env)  # what scripts/test and `stallbench run` do: only a build
    assert _found(build) == {"standin": True}
    (tmp_path / "pkgconfig" / "standin-library.pc").unlink()  # removed again: the build goes on without it
    _cmake("--build", str(build), env=env)
    assert _found(build) == {"standin": False}


def test_a_hidden_library_is_left_out_and_said_so(tmp_path):
    source, build, env = _project(tmp_path)
    (tmp_path / "pkgconfig" / "standin-library.pc").write_text(PC)
    _cmake("-S", str(source), "-B", str(build), "-G", "Ninja", "-DSTALLBENCH_WITHOUT=standin", env=env)
    assert _found(build) == {"standin": False}
    lines = optional.notices(build)
    assert lines == ["notice: demo engine standin is not in this build (left out by STALLBENCH_WITHOUT)"]


def _write(build: Path, dependencies: list[dict], version=optional.FORMAT, watched=()) -> None:
    build.mkdir(exist_ok=True)
    (build / optional.FILE).write_text(json.dumps({"version": version, "dependencies": dependencies,
                                                   "watched": list(watched)}))


def _dependency(name, family, found):
    return {"name": name, "family": family, "kind": "engine", "how": f"lib{name} (pkg-config)",
            "install": f"lib{name}-dev", "found": found, "hidden": False}


def test_notices_name_each_missing_dependency_of_the_families_asked_for(tmp_path):
    _write(tmp_path, [_dependency("hyperscan", "regex", False), _dependency("re2", "regex", True),
                      _dependency("simdjson", "json", False)])
    assert optional.notices(tmp_path, {"regex"}) == [
        "notice: regex engine hyperscan is not in this build (libhyperscan (pkg-config) not found; install "
        "libhyperscan-dev)"]
    assert len(optional.notices(tmp_path)) == 2
    assert optional.notices(tmp_path, {"pool"}) == []


def test_with_no_build_a_build_behind_the_installed_libraries_is_said(tmp_path):
    watched = tmp_path / "pkgconfig"
    watched.mkdir()
    _write(tmp_path / "b", [_dependency("hyperscan", "regex", False)], watched=[str(watched)])
    configured = (tmp_path / "b" / optional.FILE).stat().st_mtime
    os.utime(watched, (configured + 10, configured + 10))  # a library appeared after configuring
    assert optional.notices(tmp_path / "b", no_build=False)[-1].startswith("notice: regex engine hyperscan")
    assert "run without --no-build" in optional.notices(tmp_path / "b", no_build=True)[-1]


def test_another_format_is_refused_with_one_line(tmp_path):
    _write(tmp_path, [], version=99)
    with pytest.raises(UsageError, match="format 99 is not 1"):
        optional.notices(tmp_path)


def test_list_says_every_optional_dependency_this_build_lacks_once():
    expected = optional.notices(BUILD)
    result = stallbench_command("list", "--no-build")
    assert result.returncode == 0, result.stderr
    said = [l.removeprefix("stallbench: ") for l in result.stderr.splitlines() if "notice:" in l]
    assert said == expected
