"""A user's own program, for the commands that measure one (doctor, probe-cost, sweep-pool --app):
started in a process group of its own and driven at a rate (program.py), its processes read from
/proc (process_group.py), what the pool probe saw inside it over the load (probe_figures.py), and
the benchmarks those commands record, declared in C++ (own_benchmarks.py)."""
