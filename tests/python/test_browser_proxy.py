"""The proxy the browser drivers point every browser at (workloads/browser/driver/refuse.mjs)
refuses what would leave 127.0.0.1 and names it, and a browser that resets a refused connection
does not end the driver: on a brand-new busy machine Chromium reset a refused tunnel and the
driver died of an unhandled ECONNRESET (test_browser_timers.py's page run, 2026-12-05)."""
import json

import pytest

from conftest import DATA
from stallbench_lib import children
from stallbench_lib import node as nodejs

NODE, WHY_NONE = nodejs.find()


@pytest.mark.skipif(NODE is None, reason=WHY_NONE)
def test_connections_reset_at_any_moment_are_refused_and_named_and_the_driver_lives_on():
    out = children.run([NODE.path, str(DATA / "refusing_proxy_resets.mjs")], text=True, timeout_s=60)
    assert out.returncode == 0, out.stderr[-2000:]
    refused = json.loads(out.stdout.strip().splitlines()[-1])
    # The tunnel reset before the proxy read it may never reach the proxy's handler: not asked.
    assert {"reset-on-answer.example:443", "request-reset.example", "closed.example:443"} <= set(refused)
    assert set(refused) <= {"reset-on-answer.example:443", "reset-at-once.example:443", "request-reset.example",
                            "closed.example:443"}
