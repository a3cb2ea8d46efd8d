"""Installing OS packages never leaves the package system broken: a Ctrl-C, a SIGTERM, the install's
limit, even a SIGKILL of the command, all let dpkg finish the call it is in (here one package), and the system is
consistent afterwards (nothing half-installed). apt's own message is shown as it is; the scipy/Boost
diagnosis only when apt named that conflict; an interrupted dpkg left by an earlier install is
completed, as apt asks, and the install goes on.

On a simulated package system (fake_packages.py): the machine's real dpkg is never touched."""
import os
import re
import signal
import subprocess

from conftest import ROOT
from fake_packages import FakePackages, bootstrap, command

APT_INSTALL = ROOT / "scripts" / "apt-install"
PACKAGES = ["pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e"]


def _apt_install(fake, *packages, **env):
    err = fake.state / "stderr"
    with open(err, "w") as out:
        proc = subprocess.Popen([str(APT_INSTALL), *packages], stdout=subprocess.DEVNULL, stderr=out,
                                start_new_session=True, env=fake.env(**env))
    return proc, err


def _said(path):
    return path.read_text() if path.exists() else ""


def test_a_stop_while_dpkg_unpacks_lets_it_finish_that_package_and_no_later_one(tmp_path):
    fake = FakePackages(tmp_path)
    fake.hold("pkg-c")
    proc, err = _apt_install(fake, *PACKAGES)
    fake.wait_until(lambda: fake.half_installed() == ["pkg-c"], "dpkg to unpack pkg-c")
    os.killpg(proc.pid, signal.SIGTERM)  # what the command sends the installer's group
    fake.wait_until(lambda: "stopping: apt-get lets dpkg finish" in _said(err), "apt-install to say it is stopping")
    assert proc.poll() is None, "apt-install exited while dpkg was still unpacking"
    fake.release()
    assert proc.wait(timeout=120) == 143, _said(err)
    assert fake.installed() == fake.finished_by_dpkg() == ["pkg-a", "pkg-b", "pkg-c"]
    assert fake.half_installed() == [] and fake.audit() == ""
    assert "the package system is consistent" in _said(err)


def test_progress_names_the_step_the_packages_and_the_time(tmp_path):
    fake = FakePackages(tmp_path)
    proc, err = _apt_install(fake, *PACKAGES, FAKE_DPKG_SECONDS="0.6", STALLBENCH_PROGRESS_S="1")
    assert proc.wait(timeout=300) == 0, _said(err)
    said = _said(err)
    assert "stallbench: packages: 5 to install (5 named, the rest what they depend on)" in said
    assert "stallbench: packages: downloaded in " in said and "unpacking and configuring 5 packages" in said
    assert any(line.startswith("stallbench: packages: installing: ") and "(Unpacking pkg-" in line and line.endswith(" s")
               for line in said.splitlines()), said
    assert fake.installed() == PACKAGES


def test_the_command_interrupted_during_an_install_waits_for_dpkg_and_exits_130(tmp_path):
    """A Ctrl-C of `stallbench json` while it installs the json family's packages: the command passes
    it on to the installer, waits for dpkg to finish its package, and only then exits."""
    fake = FakePackages(tmp_path)
    fake.hold(*_every(("core.txt", "json.txt")))
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    err = tmp_path / "command.err"
    with open(err, "w") as out:
        proc = command(fake, "json", "--input", str(document), "--node", "none", stderr=out)
    fake.wait_until(lambda: len(fake.half_installed()) == 1, "dpkg to unpack the first package")
    unpacking = fake.half_installed()
    os.kill(proc.pid, signal.SIGINT)
    fake.wait_until(lambda: "stopping: apt-get lets dpkg finish" in _said(err), "the installer to start stopping")
    assert proc.poll() is None, "the command exited while dpkg was still unpacking"
    fake.release()
    assert proc.wait(timeout=120) == 130, _said(err)
    assert fake.installed() == fake.finished_by_dpkg() == unpacking and fake.audit() == ""
    fake.wait_until(lambda: not fake.processes(), "no installer left running", timeout_s=60)


def test_a_command_killed_during_an_install_leaves_the_installer_to_stop_safely(tmp_path):
    """SIGKILL: the command cannot wait, but the kernel tells the installer (PR_SET_PDEATHSIG), which
    stops the same way: dpkg finishes its package, nothing is left half-installed, nothing runs on."""
    fake = FakePackages(tmp_path)
    fake.hold(*_every(("core.txt", "json.txt")))
    document = tmp_path / "doc.json"
    document.write_text("[1]")
    proc = command(fake, "json", "--input", str(document), "--node", "none", stderr=subprocess.DEVNULL)
    fake.wait_until(lambda: len(fake.half_installed()) == 1, "dpkg to unpack the first package")
    unpacking = fake.half_installed()
    proc.kill()
    proc.wait(timeout=60)
    fake.wait_until((fake.state / "asked-to-stop").exists, "apt-get to be asked to stop")
    fake.release()
    fake.wait_until(lambda: not fake.processes(), "the installer to stop", timeout_s=120)
    assert fake.installed() == fake.finished_by_dpkg() == unpacking and fake.audit() == ""


def test_an_interrupted_dpkg_left_earlier_is_completed_as_apt_asks_then_the_install_goes_on(tmp_path):
    fake = FakePackages(tmp_path)
    (fake.state / "half" / "left-half-installed").touch()  # dpkg killed by an earlier install
    proc, err = _apt_install(fake, "pkg-a")
    assert proc.wait(timeout=300) == 0, _said(err)
    assert "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem." in _said(err)
    assert "completing what dpkg left unfinished: dpkg --configure -a" in _said(err)
    assert fake.installed() == ["left-half-installed", "pkg-a"] and fake.audit() == ""
    assert "scipy" not in _said(err)


CONFLICT = """The following packages have unmet dependencies:
 python3-pythran : Depends: libboost-dev but it is not going to be installed
E: Unable to correct problems, you have held broken packages.
"""
OTHER = "E: Sub-process /usr/bin/dpkg returned an error code (1)\n"


def test_apts_message_is_shown_as_it_is_and_the_scipy_diagnosis_only_when_apt_named_that_conflict(tmp_path):
    for apt_says, diagnosed in ((CONFLICT, True), (OTHER, False)):
        fake = FakePackages(tmp_path / ("conflict" if diagnosed else "other"))
        fake.refuse(apt_says)
        result = bootstrap(fake, "--sets", "json")
        assert result.returncode == 2
        apt_line = [l for l in apt_says.splitlines() if l.startswith("E: ")][0]
        assert apt_line in result.stderr.splitlines()
        assert ("Boost 1.81" in result.stderr) == diagnosed, result.stderr
        assert result.stderr.strip().splitlines()[-1].startswith("stallbench: apt's whole output: ")


def test_an_install_past_its_limit_stops_safely_and_the_advice_finishes_it(tmp_path):
    """The limit's line says to run scripts/bootstrap again: doing so finishes the install, after
    which the lists the stopped one was installing are all there."""
    fake = FakePackages(tmp_path)
    core = sorted(_every(("core.txt",)))
    fake.hold(core[1])
    err = tmp_path / "bootstrap.err"
    with open(err, "w") as out:
        stopped = subprocess.Popen([str(ROOT / "scripts" / "bootstrap"), "--sets", "core"], stdout=subprocess.DEVNULL,
                                   stderr=out, env=fake.env(STALLBENCH_INSTALL_LIMIT_S="3"))
    fake.wait_until(lambda: "has run past its limit" in _said(err), "the limit")
    fake.release()
    assert stopped.wait(timeout=300) == 2
    advice = _said(err).strip().splitlines()[-1]
    assert advice.endswith("run scripts/bootstrap again to finish it"), _said(err)
    assert fake.audit() == "" and not set(core) <= set(fake.installed())
    again = bootstrap(fake)  # the advice: scripts/bootstrap
    assert again.returncode == 0, again.stderr
    assert set(core) <= set(fake.installed())
    assert bootstrap(fake, "--sets", "core", "--check").returncode == 0


def _every(lists):
    """The packages named in these lists of scripts/packages (no alternatives in them)."""
    return {w for name in lists
            for w in (re.sub(r"#.*", "", l).strip() for l in (ROOT / "scripts" / "packages" / name).read_text().splitlines())
            if w}
