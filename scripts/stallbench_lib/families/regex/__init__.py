"""Family `regex` (benches/regex.cc; docs/regex.md): the ReDoS study: the pattern catalogue, length
escalation with censoring, growth classification, correctness cross-checks, scans of a source tree
(with the readers of other languages in readers/ and the Node-side tools in node/). Its commands are
commands/regex.py and commands/versus_recheck.py; the report's section is section.py; merge.py
joins the shards of a scan for `stallbench merge`."""
