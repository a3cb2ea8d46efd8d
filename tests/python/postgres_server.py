"""A throw-away PostgreSQL server for the store's tests: Debian's postgresql-15 binaries, a data
directory made by initdb in a fresh temporary folder, a Unix socket only (no TCP port at all), run
as an unprivileged user when the tests run as root (postgres refuses root), killed with its whole
process group at the end, and its folder removed."""
import os
import pwd
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from stallbench_lib import children

UNPRIVILEGED = "nobody"
START_TIMEOUT_S = 60


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    return found[-1].parent if found else None


def _as_user(base: Path) -> list[str]:
    """The command prefix that drops root (keeping the parent-death signal, which a change of user
    would otherwise clear), and gives the user the folder."""
    if os.geteuid() != 0:
        return []
    user = pwd.getpwnam(UNPRIVILEGED)
    os.chown(base, user.pw_uid, user.pw_gid)
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--pdeathsig", "SIGKILL"]


@pytest.fixture
def postgres_url():
    bindir = _binaries()
    if bindir is None:
        pytest.skip("PostgreSQL store not tested: no PostgreSQL server here (Debian package postgresql-15, "
                    "listed in scripts/packages/test/tests.txt; scripts/bootstrap --all installs it)")
    try:
        import psycopg2
    except ImportError:
        pytest.skip("PostgreSQL store not tested: no psycopg2 (Debian package python3-psycopg2; scripts/bootstrap)")
    base = Path(tempfile.mkdtemp(prefix="stallbench-pg-"))
    server = None
    try:
        prefix = _as_user(base)
        data, socket_dir = base / "data", base
        env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        init = children.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "stallbench", "--auth=trust",
                             "-E", "UTF8", "--no-sync"], timeout_s=120, env=env, cwd=base)
        assert init.returncode == 0, init.stderr.decode(errors="replace")[-2000:]
        port = str(20000 + os.getpid() % 20000)
        log = open(base / "server.log", "wb")
        server = children.start([*prefix, str(bindir / "postgres"), "-D", str(data), "-k", str(socket_dir), "-p", port,
                                 "-c", "listen_addresses=", "-c", "fsync=off", "-c", "shared_buffers=16MB",
                                 "-c", "max_connections=10"], stdout=log, stderr=log, env=env, cwd=base)
        url = f"postgresql://stallbench@/postgres?host={socket_dir}&port={port}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                psycopg2.connect(url, connect_timeout=2).close()
                break
            except psycopg2.OperationalError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("postgres did not start: " + (base / "server.log").read_text()[-2000:])
                time.sleep(0.2)
        yield url
    finally:
        if server is not None:
            children.kill(server)
        shutil.rmtree(base, ignore_errors=True)
