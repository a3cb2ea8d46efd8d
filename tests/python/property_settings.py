"""The settings every property test uses: hypothesis's cache outside the checkout, a size the fuzz
budget sets (STALLBENCH_FUZZ_EXAMPLES), no deadline on a busy machine, no example database."""
import os
import tempfile

from hypothesis import HealthCheck, configuration, settings

# hypothesis keeps its caches in ./.hypothesis by default: not in the checkout the suite runs from.
configuration.set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "stallbench-hypothesis"))
EXAMPLES = int(os.environ.get("STALLBENCH_FUZZ_EXAMPLES", "300"))
fuzzed = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
