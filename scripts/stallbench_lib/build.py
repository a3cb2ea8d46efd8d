"""Configure and build through the CMake presets, only as much as is stale."""
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import children, paths
from .errors import UsageError


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if "error" in line.lower() or "Could NOT find" in line:
            return line.strip()
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "no output"


def _step(what: str, command: list[str], log_path: Path, cwd: Path) -> int:
    """Runs one configure or build step, logging everything and showing ninja's [n/m] progress
    on stderr (rewritten in place on a terminal), so a first build is not a silent minute. Returns
    how many [n/m] steps it showed."""
    live = sys.stderr.isatty()
    output, steps = [], 0
    with open(log_path, "a") as log:
        log.write(f"$ {' '.join(command)}\n")
        proc = None
        try:
            with children.stop_signals_held():  # an interruption lands inside the `try`, with proc set
                # No memory cap: the compiler's needs are the build's business, not an experiment's.
                proc = children.start(command, memory_bytes=0, cwd=cwd, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, encoding="utf-8", errors="replace")
            for line in proc.stdout:
                log.write(line)
                output.append(line)
                if line.startswith("[") and "/" in line.split("]")[0]:
                    steps += 1
                    text = line.rstrip()[:110]
                    print(f"\r\033[K  {text}" if live else f"  {text}", end="" if live else "\n", file=sys.stderr,
                          flush=True)
            proc.wait()
        except BaseException:  # interrupted (interrupts.py): cmake, ninja and the compilers ninja started
            if proc is not None:
                children.kill(proc)
            raise
        children.forget(proc)
    if live:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if proc.returncode != 0:
        raise UsageError(f"{what} failed: {_first_error(''.join(output))} (full log: {log_path})")
    return steps


# What the command runs, declared by CMake (the top-level CMakeLists): every bench_<family> and the
# helper programs, not the tests, so a first report does not wait for them to compile.
COMMANDS = "stallbench_commands"
# What `run` runs (a part of COMMANDS): every bench_<family> and what its cells start, not the tools
# of the other commands, which build when one of those commands is first used.
BENCHES = "stallbench_benches"
# Another checkout (ab's worktrees of a revision) is configured with its tests off: ab runs its bench
# binaries, never its tests, and a nightly or pull request then compiles none of them. A revision
# that predates the switch ignores it; one that predates COMMANDS builds all of its targets.
TESTS_OFF = "-DSTALLBENCH_TESTS=OFF"


def _cache_launcher(source: Path, build: Path) -> list[str]:
    """ccache with its base_dir the common folder of `source` and `build` (for ab, build/ab/<commit>):
    every path of a compile is then relative, the same for every commit, so one revision's objects
    are hits for the next and a CI cache restored from another commit serves this one. (The
    project's own launcher makes paths relative to the source alone, and a worktree's build folder
    lies beside it, so its paths, the commit in them, would differ for every revision.)"""
    ccache = shutil.which("ccache")
    if ccache is None:
        return []
    launcher = f"env;CCACHE_BASEDIR={os.path.commonpath([source.resolve(), build.resolve()])};{ccache}"
    return [f"-DCMAKE_C_COMPILER_LAUNCHER={launcher}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}"]


def _defines(build: Path, target: str) -> bool:
    """The configured build has `target` (a revision older than it builds everything)."""
    return f"\nbuild {target}: " in (build / "build.ninja").read_text(errors="replace")


def ensure_built(preset: str = "release", source: Path = paths.ROOT, build: Path | None = None,
                 target: str | None = COMMANDS) -> Path:
    """Builds `target` of `preset` (None: everything) if anything is stale and returns the build
    directory. CMake re-runs itself first when a library appeared since it configured (it watches
    the folders libraries appear in). A failed configure or build raises UsageError with the first
    error line and the log's path."""
    build = build or paths.build_dir(preset)
    log = build / "build.log"
    started = time.monotonic()
    if not (build / "build.ninja").exists():  # never configured, or a configure cut short (the cache comes first)
        print(f"stallbench: configuring the {preset} build in {build} ...", file=sys.stderr, flush=True)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("")
        if build == paths.build_dir(preset) and source == paths.ROOT:
            _step("configure", ["cmake", "--preset", preset], log, source)
        elif (source / "CMakePresets.json").exists():  # another checkout (ab's worktrees): its own preset
            # and its engines' programs in its own build folder (the presets' build/programs would be
            # a folder inside the worktree)
            _step("configure", ["cmake", "-S", str(source), "--preset", preset, "-B", str(build), TESTS_OFF,
                                f"-DSTALLBENCH_PROGRAMS_DIR={build / 'programs'}", *_cache_launcher(source, build)],
                  log, source)
        else:
            _step("configure", ["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja"], log, source)
    if source != paths.ROOT and target and not _defines(build, target):
        target = None  # another checkout that predates COMMANDS: all of its targets
    print(f"stallbench: building ({preset}) ...", file=sys.stderr, flush=True)
    log.write_text("")
    if _step("build", ["cmake", "--build", str(build), *(["--target", target] if target else [])], log, source):
        seconds = round(time.monotonic() - started)
        print(f"stallbench: built ({preset}) in {seconds // 60} min {seconds % 60} s", file=sys.stderr, flush=True)
    return build


def configured_source(build: Path) -> Path | None:
    """The source tree `build` was configured from, as its CMake cache names it (None: no cache)."""
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        return None
    match = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache.read_text(), re.M)
    return Path(match.group(1)) if match else None


def bench_binaries(build: Path) -> dict[str, Path]:
    """family -> its bench executable (build/<preset>/benches/bench_<family>)."""
    found = {p.name.removeprefix("bench_"): p for p in sorted((build / "benches").glob("bench_*"))
             if p.is_file() and os.access(p, os.X_OK)}
    if not found:
        raise UsageError(f"no benchmarks are built in {build}: run without --no-build, or run scripts/stallbench run")
    return found


def helper_binary(build: Path, name: str) -> Path:
    """A helper the build makes beside the benches (regex_check, regex_probe), or one line saying it
    is missing: a build made for fewer targets (a preset's list, an older checkout) may lack it."""
    path = build / "benches" / name
    if not path.exists():
        raise UsageError(f"{path} is not built: run without --no-build, or build its target ({name}) in {build}")
    return path
