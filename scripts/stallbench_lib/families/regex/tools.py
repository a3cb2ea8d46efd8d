"""Runs the regex family's Node-side tools (families/regex/node/: recheck and randexp in analyse.js, acorn in
scan.mjs) under the newest pinned Node line, with the pinned `regex-tools` npm set
(scripts/packages/npm/regex-tools), both installed on demand by scripts/bootstrap. Each tool reads
one JSON request on stdin and writes one JSON reply on stdout, in a child process bounded in time
(children.py)."""
import json
import os
import subprocess
from pathlib import Path

from ... import children, node, npm_sets
from ...errors import UsageError

SET = "regex-tools"
HERE = Path(__file__).parent / "node"


class ToolFailed(Exception):
    pass


def modules_dir() -> Path:
    return node.deps_dir() / "npm" / SET / "node_modules"


def ensure_installed() -> None:
    """The pinned set in the dependency folder, installed through scripts/bootstrap when missing or
    stale. Raises ToolFailed with the installer's own line."""
    if problem := npm_sets.install([SET]):
        raise ToolFailed(problem)


def tool_node() -> Path:
    """The newest pinned Node line's binary, installed on demand: the tools need a modern Node
    whatever lines are measured (not probed: its version is not a result)."""
    newest = list(node.pinned())[-1]
    try:
        node.install([newest])
    except UsageError as e:
        raise ToolFailed(str(e)) from None
    found = node.installed_path(newest)
    if found is None:
        raise ToolFailed(f"Node {newest} is not installed in {node.deps_dir()}")
    return found


def run(script: str, request: dict, timeout_s: float) -> dict:
    """Runs families/regex/node/<script> with `request` on stdin; its JSON reply, or ToolFailed (one line)."""
    return run_text(script, json.dumps(request), timeout_s)


def run_text(script: str, request: str, timeout_s: float) -> dict:
    """Runs families/regex/node/<script> with the text `request` on stdin; its JSON reply, or ToolFailed."""
    ensure_installed()
    binary = tool_node()
    env = {**os.environ, "NODE_PATH": str(modules_dir()), "STALLBENCH_REGEX_TOOLS": str(modules_dir())}
    try:
        done = children.run([str(binary), str(HERE / script)], input=request, text=True, env=env,
                            timeout_s=timeout_s, memory_bytes=0)
    except subprocess.TimeoutExpired:
        raise ToolFailed(f"{script} did not finish within {timeout_s:g} s") from None
    return reply(done, script)


def reply(done: subprocess.CompletedProcess, what: str) -> dict:
    """A finished tool's JSON reply, or ToolFailed naming `what` and its last line on stderr."""
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        raise ToolFailed(f"{what} failed: {said[-1] if said else f'exit status {done.returncode}'}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise ToolFailed(f"{what} printed no JSON reply") from None
