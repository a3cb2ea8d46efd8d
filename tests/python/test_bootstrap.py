"""scripts/bootstrap on a machine that has none of the packages, and the shell scripts' hygiene.

The machine these tests run on has most packages already: asking the real dpkg would show nothing.
So a stand-in dpkg-query that knows no package stands first on PATH, and the real apt-cache says
what the archive offers: the resolution is then exactly what a brand-new machine gets."""
import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

LISTS = ROOT / "scripts" / "packages"
BOOTSTRAP = ROOT / "scripts" / "bootstrap"


def lines_of(path: Path) -> list[str]:
    return [l for l in (re.sub(r"#.*", "", raw).strip() for raw in path.read_text().splitlines()) if l]


def resolution(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`scripts/bootstrap --check ARGS` as a machine with nothing installed answers it."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "dpkg-query").write_text("#!/bin/sh\n# no package is installed here\nexit 1\n")
    (fake / "dpkg-query").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "STALLBENCH_DEPS": str(tmp_path / "deps")}
    return subprocess.run([str(BOOTSTRAP), "--check", *args], capture_output=True, text=True, env=env, timeout=600)


def missing_of(result: subprocess.CompletedProcess) -> set[str]:
    assert result.returncode == 1, result.stdout + result.stderr
    line = [l for l in result.stdout.splitlines() if l.startswith("missing packages:")]
    assert len(line) == 1, result.stdout
    return set(line[0].removeprefix("missing packages:").split())


def needs_package_lists():
    if not glob.glob("/var/lib/apt/lists/*Packages*"):
        pytest.skip("this machine has no apt package lists (apt-get update): the archive's offer cannot be read")


def test_an_empty_machine_gets_every_required_package_and_one_alternative_of_every_optional_line(tmp_path):
    needs_package_lists()
    missing = missing_of(resolution(tmp_path, "--all"))
    files = sorted(LISTS.glob("*.txt")) + sorted(LISTS.glob("test/*.txt"))
    for path in files:
        for spec in lines_of(path):
            choices = spec.split("|")
            if len(choices) == 1:
                assert spec in missing, f"{path.name}: {spec} would not be installed"
            else:
                chosen = [c for c in choices if c in missing]
                assert len(chosen) == 1, f"{path.name}: {spec}: would install {chosen or 'none'} (want one)"


def test_running_installs_no_test_only_package(tmp_path):
    needs_package_lists()
    for_running = missing_of(resolution(tmp_path))
    for_testing = missing_of(resolution(tmp_path, "--all"))
    test_only = {p for f in LISTS.glob("test/*.txt") for p in lines_of(f)} - \
                {p for f in LISTS.glob("*.txt") for p in lines_of(f)}
    assert test_only and test_only <= for_testing
    assert not test_only & for_running, f"run would install test-only packages {sorted(test_only & for_running)}"


def test_ab_installs_no_test_only_package(tmp_path):
    """ab and bisect install what building revisions needs: every family's list and tracking.txt, none
    of the tests' packages (a revision is configured with its tests off)."""
    needs_package_lists()
    from stallbench_lib import os_packages
    test_only = {p for f in LISTS.glob("test/*.txt") for p in lines_of(f)} - \
                {p for f in LISTS.glob("*.txt") for p in lines_of(f)}
    for_ab = missing_of(resolution(tmp_path, "--sets", ",".join(os_packages.for_revisions())))
    assert {"python3-pytest", "libgtest-dev"} <= test_only
    assert not test_only & for_ab, f"ab would install test-only packages {sorted(test_only & for_ab)}"


def test_a_family_set_adds_its_list_to_core(tmp_path):
    needs_package_lists()
    core = missing_of(resolution(tmp_path, "--sets", "core"))
    regex = missing_of(resolution(tmp_path, "--sets", "regex"))
    assert set(lines_of(LISTS / "core.txt")) == core
    assert core < regex and "libre2-dev" in regex and "chromium" not in regex


def test_an_unknown_set_is_one_line_and_exit_2(tmp_path):
    result = resolution(tmp_path, "--sets", "core,tests")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--sets tests is not a package list (valid: " in lines[0] and "core" in lines[0]


def shell_scripts() -> list[Path]:
    candidates = [p for p in (ROOT / "scripts").iterdir() if p.is_file()] + [ROOT / ".ci" / "run"]
    return sorted(p for p in candidates if p.read_bytes().startswith(b"#!/usr/bin/env bash"))


def test_no_pipeline_ends_early_under_pipefail():
    """`producer | grep -q` (or `| head`, `| grep -m`) under pipefail fails with 141 when the reader
    stops before the producer has written everything: exactly when it found what it looked for."""
    early = re.compile(r"\|\s*(grep\s+(-[a-zA-Z]*[qm]|--quiet|--max-count)|head\b)")
    found = []
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))  # GitHub runs bash steps with pipefail
    for script in shell_scripts() + workflows:
        text = script.read_text()
        if "pipefail" not in text and script not in workflows:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if not line.lstrip().startswith("#") and early.search(line.split(" #")[0]):
                found.append(f"{script.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_shell_scripts_pass_shellcheck():
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is not installed (scripts/packages/test/tests.txt; scripts/test installs it)"
    scripts = shell_scripts()
    assert len(scripts) >= 6
    result = subprocess.run([shellcheck, "--severity=info", *map(str, scripts)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_family_list_is_one_a_family_declares():
    """A family names the lists its optional parts come from (os_packages, in C++); run without a
    filter installs every family list before its one build, so the two must be the same set."""
    from conftest import BUILD
    from stallbench_lib import build, catalogue, os_packages

    declared = {name for f in catalogue.load(build.bench_binaries(BUILD)) for name in f.os_packages}
    assert declared == set(os_packages.family_lists())


@pytest.mark.parametrize("before", [None, "# a hosts file with no localhost\n10.0.0.1 elsewhere"])
def test_a_hosts_file_that_names_no_localhost_gets_debians_lines(tmp_path, before):
    """A minimal system (mmdebstrap's minbase, a chroot) may have no hosts file: the pool families'
    lookups of localhost would then go to a real resolver, which they refuse. --check says so; the
    bootstrap adds Debian's lines, once, after what the file had (its last line may lack a newline)."""
    from fake_packages import FakePackages, bootstrap
    fake = FakePackages(tmp_path, installed=lines_of(LISTS / "core.txt"))
    hosts = tmp_path / "hosts"
    if before is not None:
        hosts.write_text(before)
    checked = bootstrap(fake, "--sets", "core", "--check", STALLBENCH_HOSTS_FILE=str(hosts))
    assert checked.returncode == 1 and f"missing: a line naming localhost in {hosts}" in checked.stdout
    for _ in range(2):
        done = bootstrap(fake, "--sets", "core", STALLBENCH_HOSTS_FILE=str(hosts))
        assert done.returncode == 0, done.stderr
    kept = before.splitlines() if before else []
    assert hosts.read_text().splitlines() == kept + ["127.0.0.1\tlocalhost", "::1\t\tlocalhost ip6-localhost ip6-loopback"]
    assert bootstrap(fake, "--sets", "core", "--check", STALLBENCH_HOSTS_FILE=str(hosts)).returncode == 0
