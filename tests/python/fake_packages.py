"""A simulated package system for the tests of installing: the stand-ins of fake_apt/ (apt-get,
apt-cache, dpkg, dpkg-query, sudo) first on PATH, their state in a folder of the test's own. Never the
machine's real dpkg: what they install is a list in that folder.

What the state holds: `installed` (one package a line), `unoffered` (packages the archive lacks),
`half/` (what dpkg is unpacking, or left half-installed), `hold-PKG` (dpkg waits on PKG while it
exists), `refuse` (apt-get install prints it and fails), `events` (which dpkg call finished a package), `effects/PKG` (a script run once PKG is
installed: what installing it changes for the command, such as a Python module that appears)."""
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT

FAKES = Path(__file__).with_name("fake_apt")


class FakePackages:
    def __init__(self, tmp_path: Path, installed: list[str] = ()):
        self.state = tmp_path / "packages"
        (self.state / "effects").mkdir(parents=True)
        (self.state / "half").mkdir()
        (self.state / "installed").write_text("".join(f"{p}\n" for p in installed))
        self.deps = tmp_path / "deps"  # the bootstrap's remembered checks: none yet

    def env(self, **more: str) -> dict:
        return {**os.environ, "PATH": f"{FAKES}:{os.environ['PATH']}", "FAKE_APT_STATE": str(self.state),
                "STALLBENCH_DEPS": str(self.deps), "TMPDIR": str(self.state), **more}

    def installed(self) -> list[str]:
        return (self.state / "installed").read_text().split()

    def finished_by_dpkg(self) -> list[str]:
        """Packages whose unpacking dpkg finished itself (not completed afterwards by --configure -a)."""
        events = self.state / "events"
        return [line.split()[1] for line in (events.read_text().splitlines() if events.exists() else [])
                if line.startswith("unpacked ")]

    def half_installed(self) -> list[str]:
        return sorted(p.name for p in (self.state / "half").iterdir())

    def hold(self, *packages: str) -> None:
        for p in packages:
            (self.state / f"hold-{p}").touch()

    def release(self) -> None:
        for held in self.state.glob("hold-*"):
            held.unlink()

    def refuse(self, apt_says: str) -> None:
        (self.state / "refuse").write_text(apt_says)

    def on_install(self, package: str, script: str) -> None:
        effect = self.state / "effects" / package
        effect.write_text(f"#!/bin/sh\n{script}\n")
        effect.chmod(0o755)

    def audit(self) -> str:
        """What `dpkg --audit` says of the simulated system: empty when it is consistent."""
        return subprocess.run([str(FAKES / "dpkg"), "--audit"], capture_output=True, text=True, check=True,
                              env=self.env()).stdout

    def processes(self) -> list[int]:
        """Processes that work on this simulated system (found by the state folder in their environment)."""
        mark = f"FAKE_APT_STATE={self.state}".encode()
        found = []
        for proc in Path("/proc").iterdir():
            try:
                if proc.name.isdigit() and mark in (proc / "environ").read_bytes().split(b"\0"):
                    found.append(int(proc.name))
            except OSError:
                continue
        return found

    def wait_until(self, condition, what: str, timeout_s: float = 300) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            assert time.monotonic() < deadline, f"waited {timeout_s} s for {what}"
            time.sleep(0.05)


def bootstrap(fake: FakePackages, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "scripts" / "bootstrap"), *args], capture_output=True, text=True, timeout=600,
                          env=fake.env(**env))


def command(fake: FakePackages, *args: str, stderr=None, **env: str) -> subprocess.Popen:
    """`python -m stallbench_lib ARGS` against the simulated system, in a session of its own (a signal
    sent to it reaches the command alone, as a terminal's Ctrl-C does)."""
    return subprocess.Popen([sys.executable, "-m", "stallbench_lib", *args], stdout=subprocess.DEVNULL,
                            stderr=stderr or subprocess.PIPE, text=True, start_new_session=True,
                            env=fake.env(PYTHONPATH=str(ROOT / "scripts"), **env))
