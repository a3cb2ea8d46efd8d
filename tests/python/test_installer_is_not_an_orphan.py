"""The command sweeps up orphans once no child it started is running: a child of ours that we did not
start, outside our process group, is taken for one and killed. An installer (installer.py) is such a
child, and killing it kills dpkg half-way: the sweep after any child that ends during an install must
spare it. On a simulated package system (fake_packages.py): the machine's dpkg is never touched."""
import threading

from fake_packages import FakePackages
from stallbench_lib import children, os_packages


def test_a_child_that_ends_during_an_install_never_ends_the_installer(tmp_path, monkeypatch):
    fake = FakePackages(tmp_path)
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    held = "libsimdjson-dev"
    fake.hold(held)

    def during_the_install():
        fake.wait_until(lambda: fake.half_installed() == [held], "dpkg to unpack the held package")
        children.run(["true"], timeout_s=30)  # starts and ends: the orphan sweep runs after it
        fake.release()

    helper = threading.Thread(target=during_the_install)
    helper.start()
    assert os_packages.ensure(["json"])
    helper.join(timeout=60)
    assert held in fake.installed() and fake.half_installed() == [] and fake.audit() == ""
