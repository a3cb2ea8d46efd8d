"""Family `pool` (benches/pool.cc; docs/pool.md): libuv's thread pool saturated by pbkdf2, with file
and DNS latency under that contention. section.py is the report's section."""
