"""The probe's exporters scraped by a real Prometheus (Debian's `prometheus`, listed in
scripts/packages/test/tests.txt): the complete example of docs/probe.md
(workloads/probe/examples/exported_service.js, which exports through prom-client and through the
OpenTelemetry SDK's Prometheus exporter) runs with the probe at UV_THREADPOOL_SIZE=2 and is driven
(eight pbkdf2 requests always in flight, 200 ms of JavaScript twice a second), while a Prometheus of
its own (a temporary folder, 127.0.0.1 only, a 1 s scrape interval) scrapes both endpoints. Used by
tests/python/test_probe_exporters.py; run as a script it also renders Prometheus' own graph page
of the scraped series with Debian's headless Chromium into docs/img/:

    /usr/bin/python3 tests/python/exporters_in_prometheus.py SECONDS
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from stallbench_lib import node as nodejs, paths
from stallbench_lib.probe import preload

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
EXAMPLE = ROOT / "workloads" / "probe" / "examples" / "exported_service.js"
READY_TIMEOUT_S = 120
IN_FLIGHT = 8
SCREENSHOT = ROOT / "docs" / "img" / "probe-prometheus.png"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, timeout: float = 10) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # 127.0.0.1 only: every URL here is built so
        return response.read()


def _wait(url: str, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            get(url, 2)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer {url} within {READY_TIMEOUT_S} s")


def _start(argv, env=None, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            **kwargs)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


class Scene:
    """The example service and a Prometheus scraping it; query() asks Prometheus."""

    def __init__(self, folder: Path):
        self.service_port, self.otel_port, self.prometheus_port = free_port(), free_port(), free_port()
        self.procs: list[subprocess.Popen] = []
        self.folder = folder
        self._driving = threading.Event()

    def start(self) -> None:
        probe = preload.find(paths.build_dir())
        node = nodejs.resolve([list(nodejs.pinned())[-1]])[0]
        env = {**preload.environment(probe, Path(os.devnull)), "STALLBENCH_PROBE_OUT": "none", "UV_THREADPOOL_SIZE": "2",
               "NODE_PATH": str(nodejs.tool_modules("exporters"))}
        self.procs.append(_start([node.path, str(EXAMPLE), str(self.service_port), str(self.otel_port)], env=env))
        _wait(f"http://127.0.0.1:{self.service_port}/metrics", self.procs[-1], "the example service")
        config = self.folder / "prometheus.yml"
        config.write_text(json.dumps({  # YAML is a superset of JSON
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s"},
            "scrape_configs": [
                {"job_name": "prom-client", "static_configs": [{"targets": [f"127.0.0.1:{self.service_port}"]}]},
                {"job_name": "opentelemetry", "static_configs": [{"targets": [f"127.0.0.1:{self.otel_port}"]}]},
            ]}))
        self.procs.append(_start([PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={self.folder / 'data'}",
                                  f"--web.listen-address=127.0.0.1:{self.prometheus_port}"], cwd=self.folder))
        _wait(f"http://127.0.0.1:{self.prometheus_port}/-/ready", self.procs[-1], "prometheus")

    def drive(self, seconds: float) -> None:
        """Pool work always in flight and the loop blocked twice a second, for `seconds`."""
        until = time.monotonic() + seconds

        def work():
            while time.monotonic() < until:
                get(f"http://127.0.0.1:{self.service_port}/work", 60)

        workers = [threading.Thread(target=work) for _ in range(IN_FLIGHT)]
        for w in workers:
            w.start()
        while time.monotonic() < until:
            get(f"http://127.0.0.1:{self.service_port}/block", 60)
            time.sleep(0.5)
        for w in workers:
            w.join()

    def query(self, expression: str) -> list[dict]:
        url = (f"http://127.0.0.1:{self.prometheus_port}/api/v1/query?"
               + urllib.parse.urlencode({"query": expression}))
        return json.loads(get(url))["data"]["result"]

    def stop(self) -> None:
        for proc in reversed(self.procs):
            _stop(proc)


@contextmanager
def scene():
    with tempfile.TemporaryDirectory(prefix="stallbench-prometheus-") as folder:
        s = Scene(Path(folder))
        try:
            s.start()
            yield s
        finally:
            s.stop()


GRAPH = ("rate(stallbench_pool_queue_wait_seconds_sum[10s]) / rate(stallbench_pool_queue_wait_seconds_count[10s])",
         "stallbench_pool_utilization_ratio", "stallbench_pool_queue_length",
         "histogram_quantile(0.99, rate(stallbench_eventloop_held_seconds_bucket[10s]))")


def screenshot(s: Scene, out: Path, seconds: float, end: float) -> None:
    """Prometheus' graph page of the scraped series over the `seconds` before `end` (a Unix time),
    rendered by Debian's headless Chromium (whose virtual time runs ahead: the end is given, not now)."""
    params = {}
    shown = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(end))
    for k, expression in enumerate(GRAPH):
        params.update({f"g{k}.expr": expression, f"g{k}.tab": "0", f"g{k}.range_input": f"{int(seconds)}s",
                       f"g{k}.end_input": shown, f"g{k}.moment_input": shown})
    url = f"http://127.0.0.1:{s.prometheus_port}/graph?" + urllib.parse.urlencode(params)
    with tempfile.TemporaryDirectory(prefix="stallbench-chromium-") as profile:
        subprocess.run(["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                        "--hide-scrollbars", "--window-size=1400,3000", "--virtual-time-budget=15000",
                        f"--screenshot={out}", url], check=True, timeout=180, capture_output=True)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    with scene() as live:
        started = time.time()
        live.drive(seconds)
        time.sleep(3)
        for expression in GRAPH:
            print(expression, json.dumps(live.query(expression)))
        screenshot(live, SCREENSHOT, time.time() - started + 5, time.time())
    print(f"wrote {SCREENSHOT}")
