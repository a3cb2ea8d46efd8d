"""The model beside real Node for `stallbench trace --node`: Node's start-up tail measured on the
line compared (the model spends as long before its loop), the generated JavaScript run under Node,
and the verdict for each scenario: agree (the same orders), race (both gave only orders the
scenario allows, their counts shown), DISAGREE."""
import os
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import children, node as nodejs, paths
from .errors import UsageError
from .medians import median

TAIL_PROBE = paths.ROOT / "workloads" / "loop" / "node" / "startup_tail.cjs"
TAIL_RUNS = 20  # the read-to-return time is a share of runs: it needs a few dozen
NODE_TIMEOUT_S = 60  # twice the trace's limit per run (kRunLimitMs)
TOOL_TIMEOUT_S = 900
# A scenario's callbacks and their logs need a few MB; a runaway one (timers that multiply) grew by
# ~75 MB/s, and would take three quarters of the machine's memory before the default cap stopped it.
TOOL_MEMORY_BYTES = 1 << 30
AGREE, RACE, DISAGREE, FAILED = "agree", "race", "DISAGREE", "failed"


@dataclass
class Tail:
    """Node's start-up tail on one line: what the model spends before its loop."""
    samples_ms: list[float] = field(default_factory=list)
    note: str = ""

    def describe(self) -> str:
        if not self.samples_ms:
            return f"start-up tail: none ({self.note})"
        return (f"start-up tail: {median(self.samples_ms):.3f} ms median of {len(self.samples_ms)} runs of "
                f"{self.note}, spent by the model before its loop, one run's value per run")


def call_tool(tool: Path, *args: str, tmpdir: Path | None = None) -> str:
    """Runs stallbench_trace; its one-line complaint about bad input becomes ours (exit 2), and so does
    its line about a run past the trace's limit (exit 1). Its writeFile ops write under `tmpdir`, which
    the caller removes however the tool ended (a run past the limit ends it without its cleanup)."""
    env = {**os.environ, "TMPDIR": str(tmpdir)} if tmpdir else None
    try:
        # Its complaints quote the file's bytes, which need not be UTF-8.
        out = children.run([str(tool), *args], encoding="utf-8", errors="backslashreplace", timeout_s=TOOL_TIMEOUT_S,
                           memory_bytes=TOOL_MEMORY_BYTES, env=env)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"stallbench: trace: the scenarios did not finish within {TOOL_TIMEOUT_S} s") from None
    if out.memory_kill:
        raise SystemExit(f"stallbench: trace: stallbench_trace was {out.memory_kill}")
    said = out.stderr.strip().split("\n")
    if out.returncode == 2:
        raise UsageError(said[-1] if said[-1] else "stallbench_trace refused its input")
    if out.returncode != 0:
        raise SystemExit(f"stallbench: trace: {said[-1] if said[-1] else f'stallbench_trace exited with {out.returncode}'}")
    return out.stdout


def model_line(node: nodejs.Node | None, given: str | None) -> str:
    """The line the model stands for: --model-node, else the Node compared (system: its major
    version when that is a pinned line), else the newest pinned line."""
    lines = list(nodejs.pinned())
    if given is not None:
        if given not in lines:
            raise UsageError(f"--model-node {given}: not a modelled Node line (valid: {', '.join(lines)})")
        return given
    if node is None:
        return lines[-1]
    line = node.line if node.line != nodejs.SYSTEM else node.version.lstrip("v").split(".")[0]
    return line if line in lines else lines[-1]


def tails_from_probes(probes: list[dict]) -> list[float]:
    """Per probe run (node/startup_tail.cjs), the time from the first timer's clock read to the
    loop's first timers check: from the setTimeout call's return to the loop, plus the mean time
    from the read to that return (the share of runs where a millisecond tick fell between them).
    Runs whose millisecond base is uncertain are left out."""
    usable = [p for p in probes if p["exact"] and p["after_read"] in (0, 1)]
    if not usable:
        return []
    read_to_return = sum(p["after_read"] for p in usable) / len(usable)
    return [max(p["gap_ms"], 0.0) + read_to_return for p in usable]


def startup_tail(node: nodejs.Node) -> Tail:
    probes = []
    for _ in range(TAIL_RUNS):
        result, error = nodejs.run_json(node, str(TAIL_PROBE), NODE_TIMEOUT_S)
        if result is None:
            return Tail(note=f"measuring it under Node {node.version} failed: {error}")
        probes.append(result)
    samples = tails_from_probes(probes)
    return Tail(samples, f"Node {node.version} here") if samples else Tail(note=f"no usable probe run of Node {node.version}")


def tail_args(tail: Tail) -> list[str]:
    return ["--startup-tail-ms", ",".join(f"{min(max(t, 0), 1000):.4f}" for t in tail.samples_ms)] if tail.samples_ms else []


def node_orders(node: nodejs.Node, script: Path, runs: int) -> tuple[list[dict], str]:
    """Runs the generated JavaScript `runs` times: (distinct orders with counts, error or "")."""
    counts: Counter = Counter()
    for _ in range(runs):
        order, error = nodejs.run_json(node, str(script), NODE_TIMEOUT_S)
        if order is None:
            return [], error
        counts[tuple(order)] += 1
    return [{"order": list(o), "count": c} for o, c in counts.items()], ""


def as_expected(expect: list[list[str]], orders: list[dict]) -> bool | None:
    if not expect:
        return None
    allowed = {tuple(e) for e in expect}
    return all(tuple(o["order"]) in allowed for o in orders)


def verdict(expect: list[list[str]], model: list[dict], node: list[dict]) -> str:
    """agree: the same distinct orders; race: the scenario allows several orders and every order
    either side gave is one of them (how often each wins may differ); else DISAGREE."""
    ours = {tuple(o["order"]) for o in model}
    theirs = {tuple(o["order"]) for o in node}
    allowed = {tuple(e) for e in expect}
    if len(allowed) > 1 and ours | theirs <= allowed:
        return RACE
    return AGREE if ours == theirs else DISAGREE


def share(orders: list[dict], order: list[str]) -> str:
    """How many runs gave `order`, as "n/N"."""
    total = sum(o["count"] for o in orders)
    return f"{sum(o['count'] for o in orders if o['order'] == order)}/{total}"
