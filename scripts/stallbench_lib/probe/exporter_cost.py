"""`probe-cost --exporter`: the probe's side of each round runs with one of its exporters on
(workloads/probe/exporter_cost.cjs, preloaded after the probe, with the pinned packages of
scripts/packages/npm/exporters), and with Prometheus' side of it exercised too: a scraper fetches
/metrics once a second for as long as the program runs, as a Prometheus with a 1 s scrape interval
would (15 s or more is usual: this is the costly end). The OpenTelemetry SDK's reader exports every
second by itself."""
import http.client
import threading
from pathlib import Path

from .. import node as nodejs

KINDS = ("prometheus", "otel")
PRELOAD = Path("probe") / "exporter_cost.cjs"
SCRAPE_S = 1.0


def preload(build_dir: Path) -> Path:
    """The exporter's preload, required after the probe's."""
    return build_dir / PRELOAD


def environment(kind: str, port_file: Path) -> dict[str, str]:
    """The exporter's settings (the pinned exporters set is installed on demand)."""
    return {"STALLBENCH_EXPORTER": kind, "STALLBENCH_EXPORTER_MODULES": str(nodejs.tool_modules("exporters")),
            "STALLBENCH_EXPORTER_PORT_FILE": str(port_file)}


class Scraper:
    """Scrapes http://127.0.0.1:PORT/metrics once a second, PORT read from the file the preload writes,
    until stop(); counts the scrapes that answered 200 and those that failed."""

    def __init__(self, port_file: Path):
        self.port_file, self.ok, self.failed = port_file, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _port(self) -> int | None:
        try:
            return int(self.port_file.read_text())
        except (OSError, ValueError):
            return None

    def _run(self) -> None:
        while not self._stop.wait(SCRAPE_S):
            port = self._port()
            if port is None:
                continue
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            try:
                connection.request("GET", "/metrics")
                response = connection.getresponse()
                body = response.read()
                if response.status == 200 and b"stallbench_pool_queue_wait_seconds" in body:
                    self.ok += 1
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
            finally:
                connection.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
