"""The pool probe seen from the orchestrator: where the built probe is and how a program is started
with it (preload.py), the JSON lines it writes read back per process (trace.py), the figures over a
window of time (window.py), and the block-bootstrap interval the tuning answer rests on (interval.py).
The probe itself lives in workloads/probe/ (a Node-API addon and its preload)."""
