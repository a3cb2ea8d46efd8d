"""Family `pool-sweep` (benches/pool_sweep.cc; docs/pool-sweep.md): the UV_THREADPOOL_SIZE study:
mixes, per-size summaries, the model's error, latency targets and the recommendation, and a user's
own program swept (`sweep-pool --app`, app_run.py, over the core's stallbench_lib/app/). The command
is commands/sweep_pool.py; the report's section is section.py (wait_section.py its part on waits)."""
