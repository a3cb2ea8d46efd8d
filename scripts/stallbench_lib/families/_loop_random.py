"""Report section of the `starvation/random_parity` benchmark: random programs from the generator
(workloads/loop/random_program.h) on each Node line and on the model of that line, how many gave the
same order, and how to run again any that did not."""
from .. import runtimes
from ..tidy import parse_params

METRICS = ("programs", "agreeing_programs", "agree_pct", "series", "disagreeing_program")

READING = """\
Each repetition draws random programs (ops, nesting and delays from the scenario grammar; only
deterministic ones: timers at whole 100 ms slots, one pool request in flight at a time) and runs each
once under the Node line and once on the model of that line. With series `fresh` every repetition
draws a new series, so a night covers as many programs as its repetitions make; a program that
disagrees is named by its series and index, and `scripts/stallbench trace --random 1 --seed SERIES
--first INDEX --node LINE` runs it again and prints it whole.
"""


def _by_repetition(rows) -> dict:
    """(runtime, repetition) -> {metric: [values]}."""
    found: dict = {}
    for r in rows:
        if r.benchmark == "random_parity" and r.status == "ok" and r.metric in METRICS:
            key = (parse_params(r.params)["runtime"], r.repetition)
            found.setdefault(key, {}).setdefault(r.metric, []).append(r.value)
    return found


def section(context) -> str:
    repetitions = _by_repetition(context.rows)
    if not repetitions:
        return ""
    found = runtimes.runtimes(rt for rt, _ in repetitions)
    lines = ["### Random programs: the model beside each Node line\n", READING,
             "| Node line | programs | agree | share |", "|---|---|---|---|"]
    again = []
    for rt in found:
        mine = [m for (r, _), m in repetitions.items() if r == rt]
        programs = sum(int(m["programs"][0]) for m in mine)
        agree = sum(int(m["agreeing_programs"][0]) for m in mine)
        lines.append(f"| {rt} | {programs} | {agree} | {100 * agree / programs:.1f}% |")
        line = runtimes.line(rt)
        again += [f"- {rt}: `scripts/stallbench trace --random 1 --seed {int(m['series'][0])} --first {int(i)} --node {line}`"
                  for m in mine for i in m.get("disagreeing_program", [])]
    if again:
        lines += ["", "Programs that disagreed, each with the command that runs it again:", "", *again]
    return "\n".join(lines) + "\n"
