"""Every "run X" the command prints as advice works: each test starts from the state that makes the
command print it, runs X as the advice says, and the command then succeeds.

What installing changes is simulated (fake_packages.py): a package the machine lacks is a Python
module shadowed by one that fails to import, or a program left off PATH, and installing the package
(through the real scripts/bootstrap and the stand-in apt-get) takes the shadow away. The advice that
installs a Node line, and the advice to build, are followed for real."""
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import BUILD, ROOT, stallbench_command
from fake_packages import FakePackages, bootstrap
from postgres_server import postgres_url  # noqa: F401 (a fixture)
from test_trace_startup import _race

FIND_PYTHON = ROOT / "scripts" / "find-python"


def _shadowed(fake: FakePackages, tmp_path: Path, module: str, package: str) -> Path:
    """`import module` fails until `package` is installed (on the simulated system)."""
    shadows = tmp_path / "shadows"
    shadows.mkdir(exist_ok=True)
    (shadows / f"{module}.py").write_text(f"raise ImportError('{module} is not installed (simulated)')\n")
    fake.on_install(package, f"rm -f '{shadows / module}.py'")
    return shadows


def _python_path(shadows: Path) -> str:
    return f"{shadows}:{ROOT / 'scripts'}"


def test_find_python_says_run_bootstrap_and_bootstrap_brings_the_modules(tmp_path):
    fake = FakePackages(tmp_path)
    shadows = _shadowed(fake, tmp_path, "matplotlib", "python3-matplotlib")
    env = fake.env(PYTHONPATH=str(shadows))
    before = subprocess.run([str(FIND_PYTHON)], capture_output=True, text=True, env=env)
    assert before.returncode == 2 and "; run scripts/bootstrap (" in before.stderr, before.stderr
    assert bootstrap(fake, PYTHONPATH=str(shadows)).returncode == 0  # the advice
    after = subprocess.run([str(FIND_PYTHON)], capture_output=True, text=True, env=env)
    assert after.returncode == 0, after.stderr


def test_a_test_configure_without_pytest_says_bootstrap_all_and_that_brings_it(tmp_path):
    """scripts/test's configure (STALLBENCH_TESTS=ON) on a machine without pytest; the
    configure `stallbench run` makes instead leaves the Python tests out and succeeds."""
    fake = FakePackages(tmp_path)
    shadows = _shadowed(fake, tmp_path, "pytest", "python3-pytest")

    def configure(build, *options):
        return subprocess.run(["cmake", "-S", str(ROOT), "--preset", "release", "-B", str(tmp_path / build), *options],
                              capture_output=True, text=True, timeout=1200, env=fake.env(PYTHONPATH=str(shadows)))

    for_running = configure("run")
    assert for_running.returncode == 0, for_running.stdout + for_running.stderr
    assert "tests: the Python tests are left out: no python3 with the OS's matplotlib and pytest" in for_running.stdout
    for_testing = configure("test", "-DSTALLBENCH_TESTS=ON")
    assert for_testing.returncode != 0
    said = " ".join(for_testing.stderr.split())  # CMake wraps its messages
    assert "pytest (python3-pytest): scripts/bootstrap --all installs it" in said, for_testing.stderr
    assert bootstrap(fake, "--all", PYTHONPATH=str(shadows)).returncode == 0  # the advice
    again = configure("test", "-DSTALLBENCH_TESTS=ON")
    assert again.returncode == 0, again.stdout + again.stderr


def test_the_postgresql_store_says_run_bootstrap_and_that_brings_psycopg2(tmp_path, postgres_url):  # noqa: F811
    fake = FakePackages(tmp_path)
    shadows = _shadowed(fake, tmp_path, "psycopg2", "python3-psycopg2")
    env = fake.env(PYTHONPATH=_python_path(shadows))
    before = stallbench_command("store", "list", "--store", postgres_url, env=env)
    assert before.returncode == 2 and "scripts/bootstrap installs it" in before.stderr, before.stderr
    assert bootstrap(fake, PYTHONPATH=str(shadows)).returncode == 0  # the advice
    after = stallbench_command("store", "list", "--store", postgres_url, env=env)
    assert after.returncode == 0, after.stderr


def _path_without(programs: set[str], into: Path) -> str:
    """A PATH of one folder holding every program of this PATH but `programs`."""
    into.mkdir()
    for folder in os.environ["PATH"].split(":"):
        for program in Path(folder).glob("*") if Path(folder).is_dir() else []:
            target = into / program.name
            if program.name not in programs and not target.exists() and os.access(program, os.X_OK):
                target.symlink_to(program)
    return str(into)


def test_instructions_without_valgrind_says_run_bootstrap_and_that_brings_it(tmp_path):
    valgrind = [Path(p) for p in subprocess.run(["dpkg", "-L", "valgrind"], capture_output=True, text=True).stdout.split()
                if p.startswith("/usr/bin/")]
    if not valgrind:
        pytest.skip("valgrind is not installed here (scripts/bootstrap installs it)")
    fake = FakePackages(tmp_path)
    sandbox = _path_without({p.name for p in valgrind}, tmp_path / "bin")
    fake.on_install("valgrind", "\n".join(f"ln -s '{p}' '{sandbox}/{p.name}'" for p in valgrind))
    env = {**fake.env(), "PATH": f"{fake.env()['PATH'].split(':')[0]}:{sandbox}"}
    run = ("run", "--no-build", "--instructions", "--filter", "^pool/saturation$", "--profile", "smoke", "--node", "none",
           "--set", "jobs=1", "--set", "pool=1", "--repetitions", "1", "--no-report", "--out", str(tmp_path / "runs"))
    before = stallbench_command(*run, env=env)
    assert before.returncode == 2 and "valgrind on PATH (Debian package valgrind; scripts/bootstrap installs it)" \
        in before.stderr, before.stderr
    assert subprocess.run([str(ROOT / "scripts" / "bootstrap")], capture_output=True, env=env).returncode == 0
    after = stallbench_command(*run, env=env, timeout=1800)
    assert after.returncode == 0, after.stderr


def test_a_trace_without_the_lines_tail_says_bootstrap_node_and_that_brings_it(tmp_path):
    """The model of a line needs the line installed to measure its start-up tail: the header says to
    install it, and once installed (for real, from the npm registry) the tail is measured and used."""
    race = _race(tmp_path)
    env = {"STALLBENCH_DEPS": str(tmp_path / "deps")}
    before = stallbench_command("trace", "--no-build", "--model-node", "18", str(race), env=env)
    assert before.returncode == 0, before.stderr
    advice = "scripts/bootstrap --node 18"
    assert advice in " ".join(before.stdout.split()), before.stdout
    installed = subprocess.run([str(ROOT / "scripts" / "bootstrap"), "--node", "18"], capture_output=True, text=True,
                               timeout=900, env={**os.environ, **env})
    if installed.returncode != 0 and any(w in installed.stderr for w in ("Connection refused", "Name or service", "timed out")):
        pytest.skip(f"the npm registry is not reachable here: {installed.stderr.strip()}")
    assert installed.returncode == 0, installed.stderr
    after = stallbench_command("trace", "--no-build", "--model-node", "18", str(race), env=env, timeout=900)
    assert after.returncode == 0, after.stderr
    assert "start-up tail: not modelled" not in after.stdout and "ms median of" in after.stdout, after.stdout


@contextmanager
def _hidden(*paths: Path):
    """Build outputs moved away for the test (under a name nothing looks for), as if never built;
    put back if the test did not rebuild them."""
    away = [p.with_name(f".hidden-{p.name}") for p in paths]
    for p, hidden in zip(paths, away):
        p.rename(hidden)
    try:
        yield
    finally:
        for p, hidden in zip(paths, away):
            if p.exists():
                hidden.unlink(missing_ok=True)
            else:
                hidden.rename(p)


def test_a_trace_whose_tool_is_not_built_says_run_without_no_build_and_that_builds_it(tmp_path):
    scenario = ROOT / "workloads" / "loop" / "scenarios"
    first = sorted(scenario.glob("*.json"))[0]
    env = {"STALLBENCH_DEPS": str(tmp_path / "deps")}  # the model alone: no Node line to measure
    with _hidden(BUILD / "tools" / "stallbench_trace"):
        before = stallbench_command("trace", "--no-build", str(first), env=env)
        assert before.returncode == 2 and before.stderr.strip().endswith("is not built: run without --no-build")
        after = stallbench_command("trace", str(first), env=env, timeout=1800)  # the advice
        assert after.returncode == 0, after.stderr


def test_a_run_with_no_benchmarks_built_says_run_without_no_build_and_that_builds_them(tmp_path):
    run = ("run", "--filter", "^pool/saturation$", "--profile", "smoke", "--node", "none", "--no-report",
           "--out", str(tmp_path))
    with _hidden(*sorted((BUILD / "benches").glob("bench_*"))):
        before = stallbench_command(*run, "--no-build")
        assert before.returncode == 2 and "no benchmarks are built in" in before.stderr
        assert "run without --no-build" in before.stderr
        after = stallbench_command(*run, timeout=1800)  # the advice
        assert after.returncode == 0, after.stderr
