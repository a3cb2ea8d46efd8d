"""How `stallbench trace` prints what it compared: the model's header (its line's semantics and
where its start-up tail came from), each scenario beside at most one Node in full, or one verdict
per line and the parity matrix for several; races with each order's odds and 95% interval; a
generated program that a line disagrees on, whole."""
import json
from pathlib import Path

from . import node as nodejs, scenario_text, trace_parity as parity
from .documents import json_loads


def _print_header(tool: Path, c) -> None:
    model = c.result["model"]
    semantics = model["semantics"]
    print(f"model:   Node {model['line']} (libuv {model['libuv']}): {semantics[0]}")
    for text in semantics[1:] + [c.tail.describe()]:
        print(scenario_text.wrapped(text, "         ", "           "))
    if c.node:
        phase = parity.call_tool(tool, "timer-phase", c.node.libuv).strip()
        print(f"node:    {c.node.version} on libuv {c.node.libuv}" + (f" ({c.node.runtime})" if c.node.line == nodejs.SYSTEM else "")
              + f": {phase}")


def _print_distinct(who: str, orders: list[dict], indent: str = "   ") -> None:
    """Each distinct order with how many runs gave it and, over several runs, its odds with their 95%
    interval."""
    n, runs = len(orders), sum(o["count"] for o in orders)
    print(f"{indent}{who}: {n} distinct order{'s' if n != 1 else ''} in {runs} run{'s' if runs != 1 else ''}")
    for o in sorted(orders, key=lambda o: -o["count"]):
        odds = f"  {parity.odds_text(o['count'], runs)}" if runs > 1 else ""
        print(f"{indent}  {o['count']:>4}×{odds}  " + " → ".join(o["order"]))


def _print_possible(who: str, s: dict) -> None:
    """The orders a model gives without their odds: a race from the main module on a model whose
    start-up tail is unknown, or a handled throw on a line where its queues drain at one of two points."""
    why = [w for w, on in (("with no start-up tail and with a long one (the tail is not modelled)",
                            s["tail_unknown"]),
                           ("with a handled throw's ticks and microtasks run after the next callback and in a poll "
                            "phase before it (Node does either, from run to run)", s["throw_race"])) if on]
    orders = s["orders"]
    if len(orders) == 1:
        print("   the same order " + " and ".join(why))
        return
    print(f"   {who}: {len(orders)} orders it can take, " + " and ".join(why) + ": their odds are not modelled")
    for o in orders:
        print("          " + " → ".join(o["order"]))


def _print_columns(ours: list[str], theirs: list[str] | None, left: str, right: str) -> None:
    width = max([len(left)] + [len(x) for x in ours]) + 2
    if theirs is None:
        for i, label in enumerate(ours, 1):
            print(f"   {i:>2}  {label}")
        return
    print(f"       {left:<{width}}{right}")
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else ""
        b = theirs[i] if i < len(theirs) else ""
        print(f"   {i + 1:>2} {' ' if a == b else '≠'} {a:<{width}}{b}")


def _print_expectation(s: dict) -> None:
    expected = parity.as_expected(s["expect"], s["orders"])
    if expected is True:
        print("   order: as expected" + (" (one of the allowed orders)" if len(s["expect"]) > 1 else ""))
    elif expected is False:
        print("   order: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))


def _print_scenario(c, i: int) -> None:
    """One scenario, the model beside at most one Node, in full."""
    s = c.result["scenarios"][i]
    scenario_text.print_intro(s, s["module"])
    if s["error"]:
        print(f"   model: failed: {s['error']}")
        return
    theirs = c.node_orders[i]
    left = f"model of Node {c.line}"
    right = f"node {c.node.version}" if c.node else ""
    if not s["odds_modelled"]:
        _print_possible(left, s)
    if len(s["orders"]) == 1 and (theirs is None or len(theirs) <= 1):
        if s["runs"] > 1 and s["odds_modelled"]:
            low, _ = parity.wilson(s["runs"], s["runs"])
            print(f"   every run of {s['runs']} gave the same order" + (" on both" if theirs else "")
                  + (f" (a race from the main module: 95% interval for its odds {100 * low:.0f}-100%)"
                     if s["startup_race"] else ""))
        _print_columns(s["orders"][0]["order"], theirs[0]["order"] if theirs else None, left, right)
    else:
        if s["odds_modelled"]:
            _print_distinct(left, s["orders"])
        if theirs:
            _print_distinct(right, theirs)
    _print_expectation(s)
    if c.node:
        text = c.verdict(i)
        if text == parity.FAILED:
            print(f"   node: failed: {c.node_errors[i]}")
        elif text == parity.RACE and not s["odds_modelled"]:
            print("   node: agree: a race; every order Node gave is one the model takes (and the scenario allows, "
                  "when it says); the model gives no odds to compare")
        elif text == parity.RACE:
            print("   node: agree: a race; both sides gave the same orders, each one the scenario allows (when it "
                  "says), and each one's odds on the two sides agree within their 95% intervals")
        elif text == parity.UNDECIDED:
            print(f"   node: undecided: a race one side gave an order of that the other never did, in {s['runs']} runs "
                  "a side (the most it makes to decide): not shown to agree")
        else:
            print(f"   node: {text}")


def _cell(c, i: int) -> str:
    """A matrix cell: agree, DISAGREE, failed, or for a race how many runs gave the first allowed
    order on the model and on Node."""
    text = c.verdict(i)
    if text != parity.RACE:
        return text
    s = c.result["scenarios"][i]
    first = parity.reference_order(s["expect"], s["orders"], c.node_orders[i])
    model = parity.share(s["orders"], first) if s["odds_modelled"] else "no odds"
    return f"race {model} | {parity.share(c.node_orders[i], first)}"


def _print_matrix(comparisons: list) -> None:
    scenarios = comparisons[0].result["scenarios"]
    name_width = max(len(s["name"]) for s in scenarios) + 2
    cells = [[_cell(c, i) for c in comparisons] for i in range(len(scenarios))]
    width = max([len(c.title) for c in comparisons] + [len(x) for row in cells for x in row]) + 2
    print("\nparity: each Node line beside the model of that line (race: runs giving the scenario's first allowed "
          "order, or with none declared the commonest, model | Node; no odds: a race the model gives the orders "
          "of, not their odds)")
    print(" " * name_width + "".join(f"{c.title:<{width}}" for c in comparisons))
    for s, row in zip(scenarios, cells):
        print(f"{s['name']:<{name_width}}" + "".join(f"{x:<{width}}" for x in row))
    for c in comparisons:
        verdicts = [c.verdict(i) for i in range(len(scenarios))]
        race = [len(s["expect"]) > 1 or v in (parity.RACE, parity.UNDECIDED) for s, v in zip(scenarios, verdicts)]
        races = [v for r, v in zip(race, verdicts) if r]
        deterministic = [v for r, v in zip(race, verdicts) if not r]
        agree = deterministic.count(parity.AGREE)
        parts = [f"{agree} of {len(deterministic)} deterministic scenarios agree ({100 * agree / len(deterministic):.0f}%)"
                 if deterministic else "", f"{sum(v in (parity.AGREE, parity.RACE) for v in races)} of {len(races)} races agree" if races else ""]
        print(f"  {c.title}: " + "; ".join(p for p in parts if p))


def _print_lines(c, i: int) -> None:
    """One scenario on one of several lines: its verdict, and the distributions when they differ."""
    s = c.result["scenarios"][i]
    text = c.verdict(i)
    print(f"   {c.title}: {text}" + (f": {c.node_errors[i] or s['error']}" if text == parity.FAILED else ""))
    if text in (parity.RACE, parity.DISAGREE, parity.UNDECIDED):
        _print_distinct(f"model of Node {c.line}", s["orders"], "      ")
        _print_distinct(f"node {c.node.version}", c.node_orders[i], "      ")
    if parity.as_expected(s["expect"], s["orders"]) is False:
        print(f"      model of Node {c.line}: NOT as expected; expected " + " or ".join(" → ".join(e) for e in s["expect"]))


def print_program(s: dict, comparisons: list, i: int, generated: set[str]) -> None:
    """A generated program some line disagrees on, whole, so it can be saved and run again."""
    if s["file"] in generated and any(c.node and c.verdict(i) in (parity.DISAGREE, parity.UNDECIDED) for c in comparisons):
        print("   the program (save it as a .json file to run it again): "
              + json.dumps(json_loads(Path(s["file"]).read_text(encoding="utf-8")), ensure_ascii=False))


def print_all(tool: Path, comparisons: list, which: str, why_not: str, generated: set[str]) -> None:
    for c in comparisons:
        _print_header(tool, c)
    for line in (which, f"note: {why_not}; showing stallbench's orders only" if why_not else ""):
        if line:
            print(line)
    scenarios = comparisons[0].result["scenarios"]
    for i, s in enumerate(scenarios):
        if len(comparisons) == 1:
            _print_scenario(comparisons[0], i)
        else:
            scenario_text.print_intro(s, s["module"])
            for c in comparisons:
                _print_lines(c, i)
        print_program(s, comparisons, i, generated)
    if len(comparisons) > 1:
        _print_matrix(comparisons)
