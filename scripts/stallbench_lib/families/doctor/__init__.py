"""Family `doctor` (benches/doctor.cc; docs/probe.md): a Node program watched from inside by the pool
probe (workloads/probe/), at the pool size it runs with, while stallbench drives a URL of it or while
its user drives it; the verdict (verdict.py, verdict_text.py) says in a line whether its loop was
blocked, its pool saturated, both or neither, with the figures behind it and the next step.
session.py runs the program; metrics.py turns what the probe saw into rows; cost.py measures what
the probe costs (`probe-cost`). The commands are commands/doctor.py and commands/probe_cost.py; the
report's section is section.py."""
