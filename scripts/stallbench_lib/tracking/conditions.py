"""What differed between the conditions two stored runs were measured under, from their meta.json:
the machine, the load on it, the build type, the Node binaries, the compilers and libraries.

`compare` sets two runs made at different times side by side; its rank test sees only the spread
inside each run, so anything that changed between the runs reads as a change in the code. When
these conditions differ, compare says so above its table and its per-cell verdicts do not make the
exit code fail (unless --gate): the gate for code changes is `ab`, whose paired rounds share the
conditions by design."""
from .samples import Run, describe_machine

# The 1-minute load average per core, the larger of a run's start and end: runs whose figures differ
# by more than this shared the CPUs with different amounts of other work. A quarter of a core is
# what one background process at a duty cycle of 25% adds, enough to move wall times by percents.
LOAD_DIFFERENCE_PER_CORE = 0.25
UNDER_TEST = "stallbench"  # meta.json's versions: the code being compared, not a condition


def _load_per_core(meta: dict) -> float | None:
    machine = meta.get("machine", {})
    cores = machine.get("cores") or 0
    loads = [values[0] for values in (machine.get("load_average_start"), machine.get("load_average_end")) if values]
    return max(loads) / cores if cores and loads else None


def _nodes(meta: dict) -> str:
    return ", ".join(sorted(f"{n.get('line', '?')} {n.get('version', '?')}" for n in meta.get("nodes") or [])) or "none"


def differences(base: Run, current: Run) -> list[str]:
    """One line per condition that differs; [] when the runs look alike in everything recorded."""
    b, c = base.meta or {}, current.meta or {}
    found = []
    if base.fingerprint != current.fingerprint:
        found.append(f"machine: BASE {describe_machine(b)}, CURRENT {describe_machine(c)}")
    loads = _load_per_core(b), _load_per_core(c)
    if None not in loads and abs(loads[0] - loads[1]) > LOAD_DIFFERENCE_PER_CORE:
        found.append(f"load: BASE {loads[0]:.2f}, CURRENT {loads[1]:.2f} per core (1-minute load average, the larger "
                     f"of start and end; more than {LOAD_DIFFERENCE_PER_CORE:g} apart)")
    if b.get("build_type") != c.get("build_type"):
        found.append(f"build type: BASE {b.get('build_type')}, CURRENT {c.get('build_type')}")
    if _nodes(b) != _nodes(c):
        found.append(f"Node: BASE {_nodes(b)}, CURRENT {_nodes(c)}")
    versions = b.get("versions") or {}, c.get("versions") or {}
    changed = sorted(k for k in versions[0].keys() & versions[1].keys() - {UNDER_TEST} if versions[0][k] != versions[1][k])
    if changed:
        found.append("versions: " + "; ".join(f"{k} {versions[0][k]} → {versions[1][k]}" for k in changed))
    return found
