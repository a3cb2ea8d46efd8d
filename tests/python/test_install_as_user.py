"""Installing as a user who is not root, whose sudo asks for a password, as most users' does. At a
terminal: the password is asked once, by the launcher's install, and the command's own installs (a
family's packages) reuse sudo's ticket, because the installer is lent the terminal rather than put in a
session of its own; a Ctrl-C there still lets dpkg finish. With no terminal (CI, a pipe): one line
naming what to run, which works, and nothing of sudo's.

On a simulated package system (fake_packages.py) with fake_apt/'s sudo, which asks as sudo does, and
its id, which says the tester is not root."""
import fcntl
import os
import re
import shlex
import signal
import subprocess
import termios
import threading

from conftest import ROOT
from fake_packages import FakePackages

BOOTSTRAP = ROOT / "scripts" / "bootstrap"
PROMPT = "[sudo] password for tester:"


class Terminal:
    """A command typed at a terminal: a session of its own whose controlling terminal is a pty, and
    whose output (everything it writes there) is collected."""

    def __init__(self, argv: list[str], env: dict):
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0), env=env)
        os.close(slave)
        self._output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: every process holding the terminal has gone
                return
            if not chunk:
                return
            self._output += chunk

    def text(self) -> str:
        return bytes(self._output).decode(errors="replace")

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=120)
        os.close(self.master)


def _user(fake: FakePackages, tmp_path, **more) -> dict:
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1\tlocalhost\n")
    return fake.env(FAKE_UID="1000", FAKE_SUDO_PASSWORD="secret", STALLBENCH_HOSTS_FILE=str(hosts), **more)


def _type_password(fake: FakePackages, typed: Terminal) -> None:
    fake.wait_until(lambda: PROMPT in typed.text() or typed.proc.poll() is not None, "sudo to ask for the password")
    assert PROMPT in typed.text(), typed.text()
    typed.type(b"secret\n")


def _prompts(fake: FakePackages) -> list[str]:
    asked = fake.state / "sudo-prompts"
    return asked.read_text().splitlines() if asked.exists() else []


def _listed(name: str) -> set[str]:
    lines = (ROOT / "scripts" / "packages" / name).read_text().splitlines()
    return {w for w in (re.sub(r"#.*", "", line).strip() for line in lines) if w and "|" not in w}


def test_with_no_terminal_one_line_says_what_to_run_and_running_it_works(tmp_path):
    fake = FakePackages(tmp_path)
    env = _user(fake, tmp_path)
    result = subprocess.run([str(BOOTSTRAP), "--sets", "core"], capture_output=True, text=True, timeout=600,
                            start_new_session=True, env=env)
    assert result.returncode == 2, result.stderr
    said = result.stderr.strip().splitlines()
    assert said[-1].startswith("stallbench: installing needs root, and sudo asks for your password with no "
                               "terminal to type it in: run 'sudo apt-get install "), said
    assert not any(line.startswith("sudo:") for line in said), said
    assert fake.installed() == [] and _prompts(fake) == []
    advice = re.search(r"run '([^']+)' yourself", said[-1]).group(1)
    typed = Terminal(shlex.split(advice), env)  # the user does as told, at a terminal
    try:
        _type_password(fake, typed)
        assert typed.proc.wait(timeout=300) == 0, typed.text()
    finally:
        typed.close()
    again = subprocess.run([str(BOOTSTRAP), "--sets", "core"], capture_output=True, text=True, timeout=600,
                           start_new_session=True, env=env)
    assert again.returncode == 0, again.stderr
    assert _listed("core.txt") <= set(fake.installed())


def test_at_a_terminal_the_password_is_asked_once_for_the_launcher_and_the_family(tmp_path):
    """`scripts/stallbench json`: the launcher installs core.txt (sudo asks), then the command installs
    json.txt through its installer, which sudo's ticket for this terminal covers."""
    fake = FakePackages(tmp_path)
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    wanted = _listed("core.txt") | _listed("json.txt")
    typed = Terminal([str(ROOT / "scripts" / "stallbench"), "json", "--input", str(document), "--node", "none"],
                     _user(fake, tmp_path, STALLBENCH_BUILD_DIR=str(tmp_path / "build")))
    try:
        _type_password(fake, typed)
        fake.wait_until(lambda: wanted <= set(fake.installed()) or typed.proc.poll() is not None,
                        "the core and json packages to be installed")
        assert wanted <= set(fake.installed()), typed.text()
    finally:
        typed.close()  # it goes on to build: not this test's business
    assert len(_prompts(fake)) == 1, _prompts(fake)
    assert "a terminal is required" not in typed.text() and "could not be installed" not in typed.text()


def test_a_ctrl_c_at_the_terminal_during_the_familys_install_lets_dpkg_finish_and_stops_the_command(tmp_path):
    fake = FakePackages(tmp_path)
    family = sorted(_listed("json.txt") - _listed("core.txt"))
    fake.hold(*family)
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    typed = Terminal([str(ROOT / "scripts" / "stallbench"), "json", "--input", str(document), "--node", "none"],
                     _user(fake, tmp_path, STALLBENCH_BUILD_DIR=str(tmp_path / "build")))
    try:
        _type_password(fake, typed)
        fake.wait_until(lambda: set(fake.half_installed()) & set(family) or typed.proc.poll() is not None,
                        "dpkg to unpack the family's first package")
        unpacking = fake.half_installed()
        assert set(unpacking) <= set(family) and unpacking, typed.text()
        typed.type(b"\x03")  # Ctrl-C: the terminal sends SIGINT to its foreground group
        fake.wait_until(lambda: "stopping: apt-get lets dpkg finish" in typed.text(), "the installer to stop")
        assert typed.proc.poll() is None, "the command exited while dpkg was still unpacking"
        fake.release()
        assert typed.proc.wait(timeout=120) == 130, typed.text()
    finally:
        typed.close()
    assert [p for p in fake.installed() if p in family] == unpacking == [p for p in fake.finished_by_dpkg()
                                                                         if p in family]
    assert fake.audit() == "" and len(_prompts(fake)) == 1
    fake.wait_until(lambda: not fake.processes(), "no installer left running", timeout_s=60)


def test_a_ctrl_z_at_the_terminal_during_the_familys_install_is_ignored_and_the_command_goes_on(tmp_path):
    """Suspended while it held the terminal, the install would leave the user a terminal answering
    nothing: their shell waits on the command, which is not suspended."""
    fake = FakePackages(tmp_path)
    family = sorted(_listed("json.txt") - _listed("core.txt"))
    fake.hold(*family)
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    typed = Terminal([str(ROOT / "scripts" / "stallbench"), "json", "--input", str(document), "--node", "none"],
                     _user(fake, tmp_path, STALLBENCH_BUILD_DIR=str(tmp_path / "build")))
    try:
        _type_password(fake, typed)
        fake.wait_until(lambda: set(fake.half_installed()) & set(family) or typed.proc.poll() is not None,
                        "dpkg to unpack the family's first package")
        typed.type(b"\x1a")  # Ctrl-Z: the terminal sends SIGTSTP to its foreground group
        typed.type(b"\x1c")  # Ctrl-\: SIGQUIT
        fake.release()
        fake.wait_until(lambda: "stallbench: building" in typed.text() or typed.proc.poll() is not None,
                        "the command to go on to its build", timeout_s=120)
        assert "stallbench: building" in typed.text(), typed.text()
    finally:
        typed.close()
    assert set(family) <= set(fake.installed()) and fake.audit() == ""
