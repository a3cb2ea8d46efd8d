"""Engines present are engines measured. Each C++ engine is compiled only when CMake found its
library at configure time (workloads/regex/CMakeLists.txt); a library installed after that is not
seen by an incremental build. So before a study the libraries are looked for again, as CMake
looks for them (pkg-config, Boost's CMake package): an engine whose library is now there but
which the build lacks makes the command reconfigure and rebuild, or, with --no-build, say loudly
what is missing and why. An engine whose library is absent is named with the package to install."""
import glob
import subprocess
import sys
from pathlib import Path

from .. import build, children, paths

PKG_CONFIG_TIMEOUT_S = 10
# engine -> (how CMake finds it, the Debian package that provides it)
LIBRARIES = {"boost": ("boost_regex 1.81 (CMake package)", "libboost-regex1.81-dev"),
             "pcre2": ("libpcre2-8 (pkg-config)", "libpcre2-dev"),
             "pcre2-jit": ("libpcre2-8 (pkg-config)", "libpcre2-dev"),
             "re2": ("re2 (pkg-config)", "libre2-dev"),
             "hyperscan": ("libhs (pkg-config)", "libhyperscan-dev or libvectorscan-dev")}
BOOST_CONFIGS = ["/usr/lib/*/cmake/boost_regex-1.81*/boost_regex-config.cmake",
                 "/usr/local/lib/cmake/boost_regex-1.81*/boost_regex-config.cmake"]


def _pkg_config(module: str) -> bool:
    try:
        return children.run(["pkg-config", "--exists", module], timeout_s=PKG_CONFIG_TIMEOUT_S).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def installed(engine: str) -> bool:
    """Whether the engine's library can be found now, as CMake would find it."""
    if engine == "boost":
        return any(glob.glob(pattern) for pattern in BOOST_CONFIGS)
    module = LIBRARIES[engine][0].split()[0]
    return _pkg_config(module)


def missing(built: list[str], probe=installed) -> tuple[list[str], list[str]]:
    """Engines this build lacks: (those whose library is now installed, those whose is not)."""
    lacking = [e for e in LIBRARIES if e not in built]
    appeared = [e for e in lacking if probe(e)]
    return appeared, [e for e in lacking if e not in appeared]


def _say(line: str) -> None:
    print(f"stallbench: {line}", file=sys.stderr, flush=True)


def _reconfigure(build_dir: Path) -> None:
    """CMake looks again for libraries it did not find (its cache keeps only what it found)."""
    _say("a regex engine's library appeared since the build was configured: reconfiguring ...")
    done = children.run(["cmake", "-S", str(paths.ROOT), "-B", str(build_dir)], timeout_s=600, text=True)
    if done.returncode != 0:
        _say(f"reconfiguring {build_dir} failed: {(done.stderr.strip().splitlines() or ['no output'])[-1]}")


def ensure_engines(match, build_dir: Path, no_build: bool, describe, probe=installed):
    """Checks the bench's engines against the libraries installed now; returns describe(build_dir)
    after a rebuild that added engines, else None. Prints one line per engine still missing."""
    appeared, absent = missing(match.param("engine").choices, probe)
    described = None
    if appeared and not no_build:
        _reconfigure(build_dir)
        build.ensure_built(build=build_dir)
        described = describe(build_dir)
        appeared, absent = missing(described[1].param("engine").choices, probe)
    for engine in appeared:
        _say(f"ENGINE MISSING: {engine}: {LIBRARIES[engine][0]} is installed, but this build was configured before "
             f"it was; run without --no-build (it reconfigures), or `cmake --preset release`")
    for engine in absent:
        _say(f"engine {engine} is not in this build: {LIBRARIES[engine][0]} not found "
             f"(install {LIBRARIES[engine][1]} and run again)")
    return described
