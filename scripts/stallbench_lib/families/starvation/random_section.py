"""Report section of the `starvation/random_parity` benchmark: random programs from the generator
(workloads/loop/random_program.h) on each Node line and on the model of that line, how many gave the
same order, and how to run again any that did not."""
from ... import runtimes
from ...rendering import grouping, table

METRICS = ("programs", "agreeing_programs", "agree_pct", "series", "disagreeing_program")
COLUMNS = ["Node line", table.number("programs"), table.number("agree"), table.number("share")]

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
    return grouping.values(rows, lambda p: runtimes.label(p), benchmark="random_parity", metrics=METRICS, per_repetition=True)


def section(context) -> str:
    repetitions = _by_repetition(context.rows)
    if not repetitions:
        return ""
    found = runtimes.runtimes(rt for rt, _ in repetitions)
    shown, again = [], []
    for rt in found:
        mine = [m for (r, _), m in repetitions.items() if r == rt]
        programs = sum(int(m["programs"][0]) for m in mine)
        agree = sum(int(m["agreeing_programs"][0]) for m in mine)
        shown.append([rt, programs, agree, f"{100 * agree / programs:.1f}%"])
        line = runtimes.line(rt)
        again += [f"- {rt}: `scripts/stallbench trace --random 1 --seed {int(m['series'][0])} --first {int(i)} --node {line}`"
                  for m in mine for i in m.get("disagreeing_program", [])]
    text = "### Random programs: the model beside each Node line\n\n" + READING + "\n" + table.markdown(COLUMNS, shown)
    if again:
        text += "\nPrograms that disagreed, each with the command that runs it again:\n\n" + "\n".join(again) + "\n"
    return text
