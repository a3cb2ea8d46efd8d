"""Bad input gets one clear line and exit 2, and writes nothing."""
import pytest

from conftest import BUILD, stallbench, tree


@pytest.mark.parametrize("value", ["0", "-1", "2000", "abc"])
def test_pool_out_of_range(tmp_path, value):
    result = stallbench("run", "--no-build", "--out", str(tmp_path), "--set", f"pool={value}")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "1-1024" in lines[0] and value in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [
    (["--set", "bogus=1"], "unknown parameter"),
    (["--set", "jobs="], "KEY=V1,V2"),
    (["--filter", "no-such-family"], "matches no benchmark"),
    (["--filter", "(unclosed"], "not a valid regular expression"),
    (["--set", "digest=md5"], "valid values are sha256, sha512"),
    (["--set", "jobs=4,x"], "out of range"),
    (["--repetitions", "0"], "out of range"),
    (["--profile", "huge"], "invalid choice"),
])
def test_bad_run_arguments(tmp_path, args, words):
    result = stallbench("run", "--no-build", "--out", str(tmp_path), *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_missing_build(tmp_path):
    result = stallbench("run", "--no-build", "--out", str(tmp_path), env={"STALLBENCH_BUILD_DIR": str(tmp_path / "none")})
    assert result.returncode == 2
    assert "no benchmarks are built" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_failed_build_is_one_line(tmp_path):
    from stallbench_lib.build import ensure_built
    from stallbench_lib.errors import UsageError

    source = tmp_path / "src"
    source.mkdir()
    (source / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.22)\nproject(broken CXX)\n"
                                           "add_executable(b b.cc)\n")
    (source / "b.cc").write_text("int main() { return missing_symbol; }\n")
    with pytest.raises(UsageError) as failure:
        ensure_built(source=source, build=tmp_path / "build")
    message = str(failure.value)
    assert message.startswith("build failed") and "missing_symbol" in message and "\n" not in message


def test_list_shows_grids_and_metrics():
    result = stallbench("list", "--no-build")
    assert result.returncode == 0, result.stderr
    assert "pool/saturation" in result.stdout
    assert "UV_THREADPOOL_SIZE" in result.stdout and "integers 1-1024" in result.stdout
    assert "fs_latency_ms" in result.stdout
    assert "node lines (--node LINES" in result.stdout and "system" in result.stdout


def test_report_of_a_non_run_is_refused(tmp_path):
    result = stallbench("report", str(tmp_path))
    assert result.returncode == 2 and "not a run directory" in result.stderr
    assert tree(tmp_path) == {}


def test_bench_binary_refuses_bad_grid_itself():
    import subprocess

    result = subprocess.run([str(BUILD / "benches" / "bench_pool"), "--stallbench-grid=pool=2000",
                             "--benchmark_list_tests"], capture_output=True, text=True)
    assert result.returncode == 2 and "1-1024" in result.stderr


def _fresh_interpreter(code: str) -> list[str]:
    """The output lines of `code` run by a new interpreter in scripts/, where nothing is imported yet."""
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "scripts",
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()


def test_a_command_imports_only_its_own_module():
    """`trace`, `list` and the like do not pay for numpy and matplotlib (over a second on a busy
    machine), which only ab, history and the reports need."""
    code = ("import sys; from stallbench_lib import cli\n"
            "try:\n    cli.main(['trace', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('numpy', 'matplotlib', 'stallbench_lib.tracking.commands.ab') if m in sys.modules))")
    assert _fresh_interpreter(code)[-1] == "[]"


def test_no_commands_help_imports_matplotlib():
    """Plotting is paid for when a command draws, not to read its usage (`page --help` took 1.9 s
    of imports for one verdict function beside the report's figures)."""
    code = ("import contextlib, io, sys; from stallbench_lib import cli\n"
            "for name in sorted(cli.command_modules()):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n            cli.main([name.replace('_', '-'), '--help'])\n"
            "        except SystemExit:\n            pass\n"
            "    if 'matplotlib' in sys.modules:\n        print(name)\n        break\n"
            "print('checked', len(cli.command_modules()))")
    lines = _fresh_interpreter(code)
    assert lines[0].startswith("checked"), lines


@pytest.fixture
def installs(monkeypatch):
    """`run` with its build standing for this checkout's and its installer for the OS's: the lists it
    asks to install, in order, and the builds it asks for (one `build` entry each)."""
    from stallbench_lib import build, os_packages
    from stallbench_lib.errors import UsageError

    asked = []

    def built(**_):
        asked.append("build")
        return BUILD

    def install(lists):
        asked.append(list(lists))
        if lists:
            raise UsageError("the stand-in installer stops the run here")
        return False
    monkeypatch.setattr(build, "ensure_built", built)
    monkeypatch.setattr(os_packages, "ensure", install)
    return asked


@pytest.mark.parametrize("args, words", [
    (["--set", "bogus=1"], "unknown parameter"),
    (["--set", "pool=0"], "1-1024"),
    (["--set", "digest=md5"], "valid values are sha256, sha512"),
    (["--filter", "^pool/", "--set", "json.mode=inline"], "unknown parameter in json"),
])
def test_a_grid_the_benchmarks_refuse_is_refused_before_any_family_s_packages_are_installed(
        tmp_path, capsys, installs, args, words):
    """Which parameters and values there are, the built binaries say: `run` builds them from the core
    packages first and asks, so a wrong --set costs no install of a browser or a language runtime."""
    from stallbench_lib import cli

    assert cli.main(["run", "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err
    assert installs == ["build"]
    assert list(tmp_path.iterdir()) == []


def test_a_filter_that_is_no_regular_expression_is_refused_before_the_build(tmp_path, capsys, installs):
    from stallbench_lib import cli

    assert cli.main(["run", "--out", str(tmp_path), "--filter", "(unclosed"]) == 2
    assert "not a valid regular expression" in capsys.readouterr().err
    assert installs == []


def test_a_grid_the_benchmarks_accept_goes_on_to_install_its_families_packages(tmp_path, capsys, installs):
    """The same order with a good --set: built, checked, then the selected families' lists installed
    (every family's, with no --filter)."""
    from stallbench_lib import cli, os_packages

    assert cli.main(["run", "--out", str(tmp_path), "--set", "pool=1,2"]) == 2
    assert "the stand-in installer stops the run here" in capsys.readouterr().err
    assert installs == ["build", os_packages.family_lists()]
