"""stallbench's orchestrator: builds, plans, runs cells in isolated processes, converts Google
Benchmark JSON to the tidy CSV, and renders reports. Benchmarks themselves live in C++."""
