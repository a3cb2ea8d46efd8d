"""Processor time spent by a process and its live descendants (an engine's program is the child
of the process that drives it), read from /proc: what a match did, whatever the load made of its
wall time. On a loaded machine (load 40 on 2 cores here) a match waits seconds for the processor;
a limit on wall time alone records that wait as the engine's timeout."""
import os
from pathlib import Path


def tree_cpu_s(pid: int) -> float:
    """User and system seconds of `pid` and its live descendants (0 for what has ended meanwhile)."""
    ticks, waiting, seen = 0, [pid], set()
    while waiting:
        p = waiting.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # after the name: state, ppid, ..., utime (14th), stime
            for task in Path(f"/proc/{p}/task").iterdir():
                waiting += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile
    return ticks / os.sysconf("SC_CLK_TCK")
