"""The lock-file installer against a registry of our own on 127.0.0.1: every package unpacked where the
lock puts it, and its progress counts packages of the set (it used to name whichever tarball was
arriving, `netmask 0 of 0 MB`, for a package of a few kB)."""
import base64
import hashlib
import http.server
import io
import json
import tarfile
import threading

import pytest

from stallbench_lib import lock_install


def _tarball(name: str, text: str) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        data = text.encode()
        info = tarfile.TarInfo("package/index.js")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def registry(monkeypatch):
    """name -> tarball, served as npm's registry serves them (NAME/-/NAME-VERSION.tgz)."""
    served: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = served.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("npm_config_registry", f"http://127.0.0.1:{server.server_address[1]}/")
    yield served
    server.shutdown()
    server.server_close()


def test_every_package_is_unpacked_and_the_progress_counts_the_sets_packages(tmp_path, registry, monkeypatch, capsys):
    monkeypatch.setattr(lock_install, "PROGRESS_S", 0)  # a line at every step
    names = ["alpha", "beta", "gamma"]
    lock = {"packages": {"": {"name": "set"}}}
    for name in names:
        data = _tarball(name, f"module.exports = '{name}';\n")
        registry[f"/{name}/-/{name}-1.0.0.tgz"] = data
        lock["packages"][f"node_modules/{name}"] = {
            "version": "1.0.0", "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()}
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "package-lock.json").write_text(json.dumps(lock))
    lock_install.install(tmp_path / "set", tmp_path / "dest")
    for name in names:
        assert (tmp_path / "dest" / "node_modules" / name / "index.js").read_text() == f"module.exports = '{name}';\n"
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(line.startswith("stallbench: installing: ") and " of 3 packages, " in line for line in lines)
    assert lines[-1].startswith("stallbench: installing: 3 of 3 packages, ")
