"""Page scenarios: the ordering scenarios of `stallbench trace` (workloads/loop/scenario.h: name,
module, program, analysis, seed, expect, runs) with the browser's scheduling ops, run in Chromium
by `trace --browser`. `module` is "page": the program's body runs as a task of the page
(workloads/browser/pages/trace.js). An op is an object with `op` and, by op:

  log                      text (required): logged at once
  promise, queueMicrotask, await                                   log, then
  setTimeout               ms (required, 0-10000), log, then
  setInterval              ms (required, 0-10000), count (required, 1-1000): cleared after
                           `count` ticks; log and then run on every tick
  busy                     ms (required, 0-10000) of synchronous work; log logged after it
  requestAnimationFrame    log, then: at the next rendering step
  postMessage              log, then: a message through a new MessageChannel
  requestIdleCallback      timeout (1-10000), log, then
  postTask                 priority (user-blocking | user-visible | background; default
                           user-visible), delay (0-10000), log, then: scheduler.postTask
  yield                    log, then: the continuation after `await scheduler.yield()`
  listen                   log, then: a click listener on the page's button, run on every click
  click                    how (required): "script" (button.click(), listeners run at once) or
                           "user" (a real click through the protocol's input events: a task)

Node's own ops (nextTick, setImmediate, readFile, lookup) are refused: a page has no such thing.
Every problem is one line naming the file, the JSON path and what would be valid (UsageError)."""
import json
from pathlib import Path

from ..errors import UsageError
from ..documents import json_loads

MAX_MS = 10_000
MAX_COUNT = 1_000
MAX_DEPTH = 32
MAX_OPS = 10_000
CALLBACK = {"log", "then"}
PRIORITIES = ("user-blocking", "user-visible", "background")
CLICKS = ("script", "user")
# op -> (required fields, optional fields)
OPS = {
    "log": ({"text"}, set()),
    "promise": (set(), CALLBACK),
    "queueMicrotask": (set(), CALLBACK),
    "await": (set(), CALLBACK),
    "setTimeout": ({"ms"}, CALLBACK),
    "setInterval": ({"ms", "count"}, CALLBACK),
    "busy": ({"ms"}, {"log"}),
    "requestAnimationFrame": (set(), CALLBACK),
    "postMessage": (set(), CALLBACK),
    "requestIdleCallback": (set(), CALLBACK | {"timeout"}),
    "postTask": (set(), CALLBACK | {"priority", "delay"}),
    "yield": (set(), CALLBACK),
    "listen": (set(), CALLBACK),
    "click": ({"how"}, set()),
}
NODE_ONLY = {"nextTick": "process.nextTick", "setImmediate": "setImmediate", "readFile": "fs.readFile",
             "lookup": "dns.lookup"}
TOP = {"name", "module", "program", "analysis", "seed", "expect", "runs"}


class _Checker:
    def __init__(self, file: Path):
        self.file = file
        self.ops = 0

    def fail(self, where: str, what: str):
        raise UsageError(f"{self.file}: {where}: {what}")

    def integer(self, value, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not low <= value <= high:
            self.fail(where, f"must be an integer {low}-{high} (got {json.dumps(value)})")
        return int(value)

    def text(self, value, where: str) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be a string (got {json.dumps(value)})")
        return value

    def op(self, op, where: str, depth: int) -> None:
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            self.fail(where, 'must be an object with "op" naming the operation')
        name = op["op"]
        if name in NODE_ONLY:
            api = name if NODE_ONLY[name] == name else f"{name} ({NODE_ONLY[name]})"
            self.fail(f"{where}.op", f"{api} is Node's; a page has no such thing "
                                     f"(a page scenario's ops: {', '.join(OPS)})")
        if name not in OPS:
            self.fail(f"{where}.op", f"unknown op {json.dumps(name)} (a page scenario's ops: {', '.join(OPS)})")
        self.ops += 1
        if self.ops > MAX_OPS:
            self.fail(where, f"more than {MAX_OPS} ops")
        required, optional = OPS[name]
        for key in op:
            if key != "op" and key not in required | optional:
                self.fail(f"{where}.{key}", f"{name} takes {', '.join(sorted(required | optional)) or 'no fields'}")
        for key in required:
            if key not in op:
                self.fail(where, f"{name} needs {key}")
        for key in ("ms", "delay"):
            if key in op:
                self.integer(op[key], f"{where}.{key}", 0, MAX_MS)
        if "timeout" in op:
            self.integer(op["timeout"], f"{where}.timeout", 1, MAX_MS)
        if "count" in op:
            self.integer(op["count"], f"{where}.count", 1, MAX_COUNT)
        for key in ("log", "text"):
            if key in op:
                self.text(op[key], f"{where}.{key}")
        if "priority" in op and op["priority"] not in PRIORITIES:
            self.fail(f"{where}.priority", f"must be one of {', '.join(PRIORITIES)} (got {json.dumps(op['priority'])})")
        if "how" in op and op["how"] not in CLICKS:
            self.fail(f"{where}.how", f"must be one of {', '.join(CLICKS)} (got {json.dumps(op['how'])})")
        if "then" in op:
            self.program(op["then"], f"{where}.then", depth + 1)

    def program(self, ops, where: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.fail(where, f"nested deeper than {MAX_DEPTH}")
        if not isinstance(ops, list):
            self.fail(where, "must be an array of ops")
        for i, op in enumerate(ops):
            self.op(op, f"{where}[{i}]", depth)

    def orders(self, value) -> list[list[str]]:
        if not isinstance(value, list) or not value or not all(
                isinstance(o, list) and all(isinstance(label, str) for label in o) for o in value):
            self.fail("$.expect", "must be a non-empty array of orders, each an array of labels")
        return value


def load(file: Path) -> dict:
    """The scenario, checked, with `file` (as given) and defaults filled in."""
    try:
        doc = json_loads(file.read_bytes())
    except OSError as e:
        raise UsageError(f"{file}: cannot read it: {e.strerror}")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UsageError(f"{file}: not a JSON file: {e}")
    check = _Checker(file)
    if not isinstance(doc, dict):
        check.fail("$", "must be an object with name, module and program")
    for key in doc:
        if key not in TOP:
            check.fail(f"$.{key}", f"unknown field (a scenario has {', '.join(sorted(TOP))})")
    for key in ("name", "module", "program"):
        if key not in doc:
            check.fail("$", f"needs {key}")
    if doc["module"] != "page":
        check.fail("$.module", f'must be "page" for trace --browser (got {json.dumps(doc["module"])}; '
                               '"cjs" and "esm" scenarios run under Node: trace without --browser)')
    check.program(doc["program"], "$.program", 0)
    return {
        "file": str(file),
        "name": check.text(doc["name"], "$.name"),
        "module": "page",
        "program": doc["program"],
        "analysis": check.text(doc.get("analysis", ""), "$.analysis"),
        "seed": check.text(doc.get("seed", ""), "$.seed"),
        "expect": check.orders(doc["expect"]) if "expect" in doc else [],
        "runs": check.integer(doc.get("runs", 1), "$.runs", 1, 1000),
    }


def time_bound_ms(program: list) -> int:
    """An upper bound on one run's own waiting and busy time: every ms, delay and idle timeout
    added up (an interval's once per tick)."""
    total = 0
    for op in program:
        each = op.get("ms", 0) + op.get("delay", 0) + op.get("timeout", 0)
        total += each * op.get("count", 1) + time_bound_ms(op.get("then", [])) * op.get("count", 1)
    return total
