"""The model beside real Node for `stallbench trace --node`: the generated JavaScript run under Node,
and the verdict for each scenario: agree (the same one order), race (the order varies on either side
or can vary from the main module; the orders are ones the scenario allows, when it says, both sides
gave the same orders and each one's odds on the two sides agree within their 95% intervals, or, where
the model gives no odds, every order Node gave is one the model takes),
undecided (no difference shown, but one side gave an order the other never did, after as many runs
as the budget allows), DISAGREE (after more runs on both sides when one run a side was all it had).
The model's start-up tail is startup_tail.py's."""
import math
import os
import subprocess
from collections import Counter
from pathlib import Path

from . import children, contract, node as nodejs
from .errors import UsageError

NODE_TIMEOUT_S = 60  # twice the trace's limit per run (kRunLimitMs)
TOOL_TIMEOUT_S = 900
# A scenario's callbacks and their logs need a few MB; a runaway one (timers that multiply) grew by
# ~75 MB/s, and would take three quarters of the machine's memory before the default cap stopped it.
TOOL_MEMORY_BYTES = 1 << 30
AGREE, RACE, DISAGREE, UNDECIDED, FAILED = "agree", "race", "DISAGREE", "undecided", "failed"
# A race one side has seen an order of that the other has not gets more runs on both sides, doubling
# from at least DECIDE_FIRST_RUNS, until decided or this many runs a side (about 20 s of Node's a
# scenario and line on this machine, busy).
DECIDE_FIRST_RUNS = 8
DECIDE_BUDGET_RUNS = 64


class RunFailed(Exception):
    """A run on either side failed while more runs were being made to decide a race."""


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


def tool_document(tool: Path, definition: str, *args: str, tmpdir: Path | None = None) -> dict:
    """call_tool's answer, checked as the contract's `definition` (trace_run, trace_startup_race): a
    tool built from another checkout stops the command in one line."""
    try:
        return contract.parse(call_tool(tool, *args, tmpdir=tmpdir), definition, tool.name)
    except contract.ProtocolError as e:
        raise UsageError(str(e)) from None


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


def node_orders(node: nodejs.Node, script: Path, runs: int, after_run=None) -> tuple[list[dict], str]:
    """Runs the generated JavaScript `runs` times: (distinct orders with counts, error or ""). `after_run()`
    is called after each run (what else is measured under the same load: startup_tail.Spread)."""
    counts: Counter = Counter()
    for _ in range(runs):
        order, error = nodejs.run_json(node, str(script), NODE_TIMEOUT_S)
        if after_run:
            after_run()
        if order is None:
            return [], error
        counts[tuple(order)] += 1
    return [{"order": list(o), "count": c} for o, c in counts.items()], ""


def as_expected(expect: list[list[str]], orders: list[dict]) -> bool | None:
    if not expect:
        return None
    allowed = {tuple(e) for e in expect}
    return all(tuple(o["order"]) in allowed for o in orders)


def wilson(count: int, runs: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of the share count/runs, as fractions: unlike count/runs ± z·se it
    stays inside [0, 1] and is not empty at 0 or at runs."""
    if runs == 0:
        return 0.0, 1.0
    p = count / runs
    centre = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return max(0.0, centre - half), min(1.0, centre + half)


def count_of(orders: list[dict], order) -> int:
    return sum(o["count"] for o in orders if tuple(o["order"]) == tuple(order))


def odds_agree(model: list[dict], node: list[dict]) -> bool:
    """Whether, for every order either side gave, the two sides' shares have overlapping 95% intervals."""
    runs_model, runs_node = sum(o["count"] for o in model), sum(o["count"] for o in node)
    for order in {tuple(o["order"]) for o in model + node}:
        low_m, high_m = wilson(count_of(model, order), runs_model)
        low_n, high_n = wilson(count_of(node, order), runs_node)
        if high_m < low_n or high_n < low_m:
            return False
    return True


def verdict(expect: list[list[str]], model: list[dict], node: list[dict], startup_race: bool = False,
            odds_modelled: bool = True) -> str:
    """agree: both sides gave the same one order. Else, for a race (the order varies on either side,
    the scenario allows several, or it can vary with the start-up tail, `startup_race`, or the model
    gives the orders it can take but not their odds, `odds_modelled` false): DISAGREE when an order
    given is one the scenario does not allow (when it says) or, where the model gives odds, when some
    order's odds on the two sides differ beyond their 95% intervals; UNDECIDED while one side gave an
    order the other never did (the runs so far cannot tell a rare order from a wrong one: more runs
    decide, see `decide`), or, without the model's odds, while Node gave one the model cannot take;
    else race, an agreeing one. Not a race: DISAGREE. Annotations only add the check that the orders
    are allowed: an un-annotated race is judged by its odds, or, without them, by its orders."""
    ours = {tuple(o["order"]) for o in model}
    theirs = {tuple(o["order"]) for o in node}
    allowed = {tuple(e) for e in expect}
    if ours == theirs and len(ours) == 1:
        return AGREE
    if not (len(allowed) > 1 or startup_race or not odds_modelled or len(ours) > 1 or len(theirs) > 1):
        return DISAGREE
    if len(allowed) > 1 and not ours | theirs <= allowed:
        return DISAGREE
    if not odds_modelled:
        return RACE if theirs <= ours else UNDECIDED
    if not odds_agree(model, node):
        return DISAGREE
    return RACE if ours == theirs else UNDECIDED


def merged(a: list[dict], b: list[dict]) -> list[dict]:
    """Two lists of distinct orders with counts, as one."""
    counts: Counter = Counter()
    for o in a + b:
        counts[tuple(o["order"])] += o["count"]
    return [{"order": list(o), "count": c} for o, c in counts.items()]


def unsettled(expect: list[list[str]], model: list[dict], node: list[dict], startup_race: bool = False,
              odds_modelled: bool = True) -> bool:
    """More runs could change the verdict: it is UNDECIDED, or each side gave one order, a different
    one, in fewer than DECIDE_FIRST_RUNS runs of Node. One run of a program whose order nothing but
    the program decides can still be held up (a loaded machine kept Node off the cores past the next
    timer's slot, and Node 18 gave a random program an order it gave in no later run), and one run a
    side cannot tell that from a lasting difference."""
    judged = verdict(expect, model, node, startup_race, odds_modelled)
    return judged == UNDECIDED or (judged == DISAGREE and len(model) == len(node) == 1
                                   and sum(o["count"] for o in node) < DECIDE_FIRST_RUNS)


def decide(expect: list[list[str]], model: list[dict], node: list[dict], startup_race: bool, more,
           odds_modelled: bool = True) -> tuple[list[dict], list[dict]]:
    """While the verdict is unsettled, more runs on both sides: `more(n)` makes n more runs of each and
    returns (the model's orders, Node's orders) for them; n doubles each round, until the verdict is
    decided or each side has made DECIDE_BUDGET_RUNS. Returns both sides' orders, all runs merged. A
    difference that lasts through the first DECIDE_FIRST_RUNS more runs, each side certain of its own
    order, stays a disagreement."""
    while unsettled(expect, model, node, startup_race, odds_modelled):
        runs = sum(o["count"] for o in node)
        extra = min(max(runs, DECIDE_FIRST_RUNS), DECIDE_BUDGET_RUNS - runs)
        if extra <= 0:
            break
        more_model, more_node = more(extra)
        model, node = merged(model, more_model), merged(node, more_node)
    return model, node


def share(orders: list[dict], order: list[str]) -> str:
    """How many runs gave `order`, as "n/N"."""
    return f"{count_of(orders, order)}/{sum(o['count'] for o in orders)}"


def odds_text(count: int, runs: int) -> str:
    """"85% (95% interval 77-91%)"."""
    low, high = wilson(count, runs)
    return f"{100 * count / runs:.0f}% (95% interval {100 * low:.0f}-{100 * high:.0f}%)"


def reference_order(expect: list[list[str]], *sides: list[dict]) -> list[str]:
    """The order a race's odds are quoted for: the scenario's first allowed one, else the one most runs
    gave on all sides together (ties: the first in sorted order)."""
    if expect:
        return expect[0]
    counts = Counter()
    for orders in sides:
        for o in orders:
            counts[tuple(o["order"])] += o["count"]
    return list(min(counts, key=lambda o: (-counts[o], o))) if counts else []
