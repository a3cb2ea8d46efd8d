"""The built probe (<build>/probe/: stallbench-probe.cjs and its addon, workloads/probe/) and how a
program is started with it: NODE_OPTIONS gains `--require <probe>`, so it reaches the program
however it is started (`node app.js`, `npm start`, a shell script), and every Node process of it
writes its own lines, tagged with its pid, to one file."""
import os
from pathlib import Path

from .. import build, node as nodejs, optional, paths
from ..errors import UsageError

PRELOAD = Path("probe") / "stallbench-probe.cjs"
ADDON = Path("probe") / "stallbench_canary.node"
TARGET = "stallbench_canary"
DEFAULT_RATE_PER_S = 50
FLUSH_MS = 1000


def check_rate(rate_per_s: float) -> None:
    if not 1 <= rate_per_s <= 1000:
        raise UsageError(f"--probe-rate {rate_per_s:g} is out of range: valid rates are 1-1000 canaries per second")


def find(build_dir: Path) -> Path | None:
    """The preload, when this build has the probe (its addon needs a pinned Node line's headers)."""
    preload = build_dir / PRELOAD
    return preload if preload.exists() and (build_dir / ADDON).exists() else None


def missing_reason(build_dir: Path) -> str:
    """Why this build has no probe, in the words of the build's optional-dependency record."""
    for line in optional.notices(build_dir, {"pool"}):
        if "node-api" in line:
            return line.removeprefix("notice: ")
    return f"{build_dir / ADDON} is not built"


def provide(no_build: bool = False) -> tuple[Path | None, str]:
    """(the preload of the Release build, built if stale; or None and why it cannot be had). The
    newest pinned Node line is installed first: its headers build the addon."""
    build_dir = paths.build_dir()
    if not no_build:
        try:
            nodejs.install([list(nodejs.pinned())[-1]])
        except UsageError:
            pass  # offline: a build that already has the probe still serves
        try:
            build.ensure_built(target=TARGET)
        except UsageError as e:
            found = find(build_dir)
            return found, "" if found else (missing_reason(build_dir) if _left_out(build_dir) else str(e))
    found = find(build_dir)
    return found, "" if found else missing_reason(build_dir)


def _left_out(build_dir: Path) -> bool:
    return any("node-api" in line for line in optional.notices(build_dir, {"pool"}))


def _quoted(path: Path) -> str:
    return '"' + str(Path(path).resolve()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def environment(preload: Path, out: Path, rate_per_s: float = DEFAULT_RATE_PER_S, base: dict | None = None,
                also_require: tuple[Path, ...] = ()) -> dict:
    """The environment that starts a program with the probe writing to `out` (and `also_require`
    preloaded after it)."""
    env = dict(os.environ if base is None else base)
    requires = [f"--require {_quoted(p)}" for p in (preload, *also_require)]
    env["NODE_OPTIONS"] = " ".join(filter(None, [env.get("NODE_OPTIONS", ""), *requires]))
    env["STALLBENCH_PROBE_OUT"] = str(Path(out).resolve())
    env["STALLBENCH_PROBE_RATE"] = f"{rate_per_s:g}"
    env["STALLBENCH_PROBE_FLUSH_MS"] = str(FLUSH_MS)
    return env
