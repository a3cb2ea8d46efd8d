"""The browser side of stallbench: page scenarios for `trace --browser` (scenario.py, trace.py) and
finding what driving Chromium needs (setup.py). The family's own cells run in bench_browser."""
