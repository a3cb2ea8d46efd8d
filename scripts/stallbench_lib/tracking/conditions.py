"""What differed between the conditions two stored runs were measured under, from their meta.json:
the machine, the load on it, the build type, the Node binaries, the compilers and libraries.

`compare` sets two runs made at different times side by side; its rank test sees only the spread
inside each run, so anything that changed between the runs reads as a change in the code. When
these conditions differ, compare says so above its table and its per-cell verdicts do not make the
exit code fail (unless --gate): the gate for code changes is `ab`, whose paired rounds share the
conditions by design."""
from .samples import Run, describe_machine

# The 1-minute load average per core, at a run's start and at its end: runs whose figures differ by
# more than this, or a run whose own figures moved by more than this, shared the CPUs with
# different amounts of other work. A quarter of a core is what one background process busy a
# quarter of the time adds, enough to move wall times by percents.
LOAD_DIFFERENCE_PER_CORE = 0.25
UNDER_TEST = "stallbench"  # meta.json's versions: the code being compared, not a condition


def _loads_per_core(meta: dict) -> tuple[float, float] | None:
    """(start, end) 1-minute load average per core, when the run recorded both."""
    machine = meta.get("machine", {})
    cores = machine.get("cores") or 0
    start, end = machine.get("load_average_start"), machine.get("load_average_end")
    return (start[0] / cores, end[0] / cores) if cores and start and end else None


def _load(base: dict, current: dict) -> str | None:
    loads = {"BASE": _loads_per_core(base), "CURRENT": _loads_per_core(current)}
    if None in loads.values():
        return None
    moved = [side for side, (start, end) in loads.items() if abs(end - start) > LOAD_DIFFERENCE_PER_CORE]
    apart = any(abs(a - b) > LOAD_DIFFERENCE_PER_CORE for a, b in zip(loads["BASE"], loads["CURRENT"]))
    if not moved and not apart:
        return None
    said = ", ".join(f"{side} {start:.2f} → {end:.2f}" for side, (start, end) in loads.items())
    why = (f"other work started or stopped during {' and '.join(moved)}" if moved else
           "the two runs shared the machine with different amounts of other work")
    return f"load: {said} per core (1-minute load average at start → end; {why})"


def _nodes(meta: dict) -> str:
    return ", ".join(sorted(f"{n.get('line', '?')} {n.get('version', '?')}" for n in meta.get("nodes") or [])) or "none"


def differences(base: Run, current: Run) -> list[str]:
    """One line per condition that differs; [] when the runs look alike in everything recorded."""
    b, c = base.meta or {}, current.meta or {}
    found = []
    if base.fingerprint != current.fingerprint:
        found.append(f"machine: BASE {describe_machine(b)}, CURRENT {describe_machine(c)}")
    if load := _load(b, c):
        found.append(load)
    if b.get("build_type") != c.get("build_type"):
        found.append(f"build type: BASE {b.get('build_type')}, CURRENT {c.get('build_type')}")
    if _nodes(b) != _nodes(c):
        found.append(f"Node: BASE {_nodes(b)}, CURRENT {_nodes(c)}")
    versions = b.get("versions") or {}, c.get("versions") or {}
    changed = sorted(k for k in versions[0].keys() & versions[1].keys() - {UNDER_TEST} if versions[0][k] != versions[1][k])
    if changed:
        found.append("versions: " + "; ".join(f"{k} {versions[0][k]} → {versions[1][k]}" for k in changed))
    return found
