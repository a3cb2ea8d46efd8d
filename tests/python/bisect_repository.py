"""A synthetic git history for `bisect`: COMMITS commits of a tiny CMake project whose release
build has one bench, benches/bench_tiny, a shell wrapper around the test build's tiny_bench; from
commit INJECTED on, the wrapper makes tiny/sum do PCT% more work (the calibration knob,
STALLBENCH_INJECT_WORK). Configuring it writes the wrapper and building it does nothing, so a
commit "builds" in about a second.

Used by tests/python/test_bisect.py, and from the command line for the figure in docs/tracking.md:
    /usr/bin/python3 tests/python/bisect_repository.py DIR COMMITS INJECTED [PCT]
prints the commits, oldest first."""
import json
import os
import subprocess
import sys
from pathlib import Path

PRESETS = {"version": 3, "configurePresets": [
    {"name": "release", "generator": "Ninja", "binaryDir": "${sourceDir}/build/release",
     "cacheVariables": {"CMAKE_BUILD_TYPE": "Release"}}]}

CMAKE = """cmake_minimum_required(VERSION 3.20)
project(bisect_line NONE)
file(READ "${CMAKE_SOURCE_DIR}/bench_tiny.sh" wrapper)
file(WRITE "${CMAKE_BINARY_DIR}/benches/bench_tiny" "${wrapper}")
file(CHMOD "${CMAKE_BINARY_DIR}/benches/bench_tiny" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
"""


def _wrapper(tiny: Path, inject: str | None) -> str:
    lines = ["#!/bin/sh"] + ([f"export STALLBENCH_INJECT_WORK={inject}"] if inject else [])
    return "\n".join(lines + [f'exec "{tiny}" "$@"', ""])


def git(repository: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=bisect test", "-c", "user.email=bisect@test", *args],
                          cwd=repository, check=True, capture_output=True, text=True).stdout.strip()


def make(repository: Path, tiny: Path, commits: int, injected: int, pct: float = 20) -> list[str]:
    """The commits, oldest first; commit `injected` (counted from 1) brings the extra work."""
    repository.mkdir(parents=True)
    git(repository, "init", "--quiet", "--initial-branch=main")
    (repository / "CMakePresets.json").write_text(json.dumps(PRESETS, indent=2) + "\n")
    (repository / "CMakeLists.txt").write_text(CMAKE)
    made = []
    for number in range(1, commits + 1):
        inject = f"tiny/sum:{pct:g}" if number >= injected else None
        (repository / "bench_tiny.sh").write_text(_wrapper(tiny, inject))
        (repository / "version.txt").write_text(f"{number}\n")
        git(repository, "add", "-A")
        subject = f"commit {number}" + (f": tiny/sum does {pct:g}% more work" if number == injected else "")
        git(repository, "commit", "--quiet", "-m", subject)
        made.append(git(repository, "rev-parse", "HEAD"))
    return made


if __name__ == "__main__":
    build = Path(os.environ.get("STALLBENCH_BUILD_DIR", Path(__file__).resolve().parents[2] / "build" / "release"))
    where, count, at = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    for n, commit in enumerate(make(where, build / "tests" / "tiny_bench", count, at, *map(float, sys.argv[4:5])), 1):
        print(n, commit)
