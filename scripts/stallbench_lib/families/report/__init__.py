"""Family `report` (benches/report.cc; docs/report.md): seed 000's price report inline, chunked, on
workers; and the stall instruments' calibration. section.py is the report's section. (The family's
name is the seed's; the renderer of reports is stallbench_lib/rendering/.)"""
