"""The UV_THREADPOOL_SIZE study (family pool-sweep): mixes, per-size summaries, the model's error,
latency targets and the recommendation. Used by `sweep-pool` and by the family's report section."""
