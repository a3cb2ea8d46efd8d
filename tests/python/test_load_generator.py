"""The load of sweep-pool --app, doctor and probe-cost (workloads/pool_sweep/node/load.mjs): requests
fall due at random moments (Poisson arrivals) or on a fixed timer; the moments come from a seed, so
every pool size of a sweep gets the same ones; what it sends is counted as answered, failed (with
the reason) or unanswered. On a fixed timer a server busy most of the time never has two requests at
once; at random moments it does, which is what a pool that is too small makes users wait for."""
import json
import statistics
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import ROOT

LOAD = ROOT / "workloads" / "pool_sweep" / "node" / "load.mjs"


def _moments(node_path, rate, duration, arrivals, seed):
    out = subprocess.run([node_path, str(LOAD), "--moments", str(rate), str(duration), arrivals, str(seed)],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out)


def test_fixed_arrivals_are_evenly_spaced(node_path):
    assert _moments(node_path, 4, 2, "fixed", 1) == [0, 250, 500, 750, 1000, 1250, 1500, 1750]


def test_poisson_arrivals_have_exponential_gaps_drawn_from_the_seed(node_path):
    due = _moments(node_path, 20, 100, "poisson", 7)
    assert len(due) == 2000 and due == sorted(due) and 0 <= due[0] and due[-1] < 100_000  # within the duration
    gaps = [b - a for a, b in zip(due, due[1:])]
    mean = statistics.fmean(gaps)
    assert 45 < mean < 55  # 1000 ms / 20 a second
    assert 0.9 < statistics.pstdev(gaps) / mean < 1.1  # an exponential's spread equals its mean; a timer's is 0
    assert due == _moments(node_path, 20, 100, "poisson", 7)  # the same seed: the same moments
    assert due != _moments(node_path, 20, 100, "poisson", 8)


class _Server(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server calls)
        if self.path == "/hang":
            # Hangs until its test ends, not for a fixed time: a handler still asleep when the test is over
            # wrote to a closed socket later and printed its traceback into another test's captured stderr.
            self.server.test_over.wait()
            return
        self.send_response(404 if self.path == "/missing" else 200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client the load generator gave up on closed its socket: not this test's failure


@pytest.fixture()
def server():
    httpd = _QuietServer(("127.0.0.1", 0), _Server)
    httpd.test_over = threading.Event()
    serving = threading.Thread(target=httpd.serve_forever, daemon=True)
    serving.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.test_over.set()
    httpd.shutdown()
    httpd.server_close()
    serving.join()


def _drive(node_path, url, arrivals="poisson", rate=20, duration=1, drain=1):
    out = subprocess.run([node_path, str(LOAD), url, str(rate), str(duration), str(drain), "10000", arrivals, "3"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("arrivals", ["poisson", "fixed"])
def test_every_request_is_counted_answered_failed_or_unanswered(node_path, server, arrivals):
    answered = _drive(node_path, f"{server}/ok", arrivals)
    assert answered["requests"] == answered["completed"] == 20 and answered["errors"] == 0
    assert answered["arrivals"] == arrivals
    p = answered["percentiles_ms"]
    assert 0 < p["50"] <= p["90"] <= p["95"] <= p["99"] <= answered["max_ms"]
    failed = _drive(node_path, f"{server}/missing", arrivals)
    assert failed["completed"] == failed["errors"] == 20 and failed["error_codes"] == {"404": 20}
    assert failed["percentiles_ms"]["50"] is None
    unanswered = _drive(node_path, f"{server}/hang", arrivals, rate=5)
    assert unanswered["requests"] == 5 and unanswered["completed"] == 0  # the drain ended: none answered
