"""Family `starvation` (benches/starvation.cc; docs/starvation.md): nextTick against setImmediate
starvation and the loop model's order of callbacks beside real Node lines. section.py is the
report's section (parity_section.py and random_section.py its parts on the model's parity)."""
