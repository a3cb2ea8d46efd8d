"""Family `json` (benches/json.cc; docs/json.md): large JSON parses blocking the loop, by parser and
shape. section.py is the report's section; commands/json.py runs a user's own documents."""
