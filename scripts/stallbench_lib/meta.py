"""meta.json's facts: the machine, the code, the build, the libraries. Results are only
comparable between runs whose machine fingerprints match."""
import hashlib
import os
import platform
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from . import paths


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_bytes() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def machine() -> dict:
    cpu = _cpu_model()
    logical = os.cpu_count() or 0
    available = len(os.sched_getaffinity(0))
    memory_gib = round(_memory_bytes() / 2**30)
    # What makes timings comparable: the CPU, how many of it, how much memory. Not the host name,
    # which CI machines change on every run.
    fingerprint = hashlib.sha256(f"{cpu}|{logical}|{available}|{memory_gib}".encode()).hexdigest()[:12]
    return {
        "fingerprint": fingerprint,
        "cpu_model": cpu,
        "logical_cpus": logical,
        "cores": available,
        "memory_gib": memory_gib,
        "kernel": platform.release(),
        "os": _os_name(),
        "hostname": platform.node(),
        "load_average_start": list(os.getloadavg()),
    }


def _os_name() -> str:
    try:
        text = Path("/etc/os-release").read_text()
        match = re.search(r'^PRETTY_NAME="?([^"\n]*)', text, re.M)
        return match.group(1) if match else platform.system()
    except OSError:
        return platform.system()


def _git(*args: str, cwd: Path = paths.ROOT) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


# How many of a run's ancestor commits its meta.json keeps (git.ancestors): `history` names the
# commits between two nights from them where git cannot (a shallow checkout, as CI makes), so a
# change accepted as intended is matched there as in a full clone. 200 ids are about 8 KB.
ANCESTRY = 200


def ancestry(commit: str | None, cwd: Path = paths.ROOT) -> list[str]:
    """The commit and its ancestors, newest first, in topological order (an ancestor never before a
    descendant), at most ANCESTRY; [] when git cannot say."""
    listed = _git("rev-list", "--topo-order", f"--max-count={ANCESTRY}", commit, "--", cwd=cwd) if commit else None
    return listed.split() if listed else []


def git_info() -> dict:
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "short": commit[:8] if commit else None, "dirty": bool(status),
            "branch": _git("rev-parse", "--abbrev-ref", "HEAD"), "ancestors": ancestry(commit)}


def build_type(build: Path) -> str | None:
    cache = build / "CMakeCache.txt"
    if cache.exists():
        match = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", cache.read_text(), re.M)
        if match:
            return match.group(1)
    return None


def python_versions() -> dict:
    import matplotlib

    return {"python": platform.python_version(), "matplotlib": matplotlib.__version__}


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_run_id(git: dict, shard: dict | None = None) -> str:
    """'20261202T133118Z-43d94ddc'; a shard's says which (-shard2of3): its siblings start in the same
    second on other machines, and their ids must differ in the store they share."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    part = f"-shard{shard['index']}of{shard['count']}" if shard else ""
    return f"{stamp}-{git['short'] or 'nogit'}{part}"
