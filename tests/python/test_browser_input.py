"""A click's time is its event's own timestamp in both browsers, stamped as the browser receives the
input: in Firefox too, whose click the driver synthesizes in the parent process (BiDi's own input
actions are stamped in the page's process only once the page is free). So a click sent during an
inline long task is stamped inside it, and waits for it to end."""
import json

import pytest

from test_browser import _bench, _counters, needs_browser, needs_firefox


@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_a_click_during_an_inline_task_is_stamped_in_it_and_waits_for_its_end(tmp_path, browser):
    out = tmp_path / "out.json"
    result = _bench("--benchmark_filter=^report/", f"--stallbench-grid=report.browser={browser}",
                    "--stallbench-grid=report.strategy=inline", "--stallbench-grid=report.chunk=0",
                    "--stallbench-grid=report.rows=8000000", "--stallbench-grid=report.click_ms=25",
                    "--benchmark_repetitions=1", f"--benchmark_out={out}", "--benchmark_out_format=json")
    assert result.returncode == 0, result.stderr[-2000:]
    (run,) = json.loads(out.read_text())["benchmarks"]
    assert not run.get("error_occurred"), run.get("error_message")
    start, end = run["work_start_ms"], run["work_end_ms"]
    clicks = list(zip(_counters(run, "click_at_ms"), _counters(run, "click_delay_ms")))
    during = [(at, delay) for at, delay in clicks if start < at < end]
    assert during, f"no click stamped inside the task ({start}-{end}): {clicks}"
    assert all(at + delay >= end for at, delay in during)
