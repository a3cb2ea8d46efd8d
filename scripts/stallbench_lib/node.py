"""Node as an optional peer: found through $STALLBENCH_NODE when set (a path; "" or "none" for no
Node), else as `node` on PATH. The bench binaries find it the same way (workloads/loop/node_process.h)."""
import json
import os
import shutil
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    path: str
    version: str  # process.version, e.g. v20.20.2
    libuv: str    # process.versions.uv, e.g. 1.46.0


def find() -> tuple[Node | None, str]:
    """The Node to use, or None and one line saying why there is none."""
    given = os.environ.get("STALLBENCH_NODE")
    if given is not None:
        if given in ("", "none"):
            return None, "node disabled (STALLBENCH_NODE is empty or none)"
        if not os.access(given, os.X_OK):
            return None, f"node not found: STALLBENCH_NODE={given} is not an executable"
        path = given
    else:
        path = shutil.which("node")
        if path is None:
            return None, "node not found on PATH (install it, or set STALLBENCH_NODE to its path)"
    try:
        out = subprocess.run([path, "-p", "JSON.stringify({v: process.version, uv: process.versions.uv})"],
                             capture_output=True, text=True, timeout=30)
        info = json.loads(out.stdout.strip().splitlines()[-1])
        return Node(path, info["v"], info["uv"]), ""
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError) as e:
        return None, f"node at {path} did not start: {e}"


def run_json(node: Node, script: str, timeout_s: float) -> tuple[object | None, str]:
    """Runs `node script`; returns the last stdout line parsed as JSON, or None and why it failed."""
    try:
        out = subprocess.run([node.path, script], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return None, f"node did not finish within {timeout_s:g} s"
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        said = out.stderr.strip().splitlines()
        return None, f"node exited with {out.returncode}" + (f": {said[-1]}" if said else "")
    try:
        return json.loads(lines[-1]), ""
    except ValueError:
        return None, f"node printed no JSON result (last line: {lines[-1]!r})"
