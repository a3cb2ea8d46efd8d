"""The options many commands share are declared once: --out, --no-build, --no-report in
common_options.py, the statistics of a verdict (--alpha, --min-effect) in
tracking/statistics_options.py. In every command that takes one, it is that declaration (one meaning,
one type, one default), never one of the command's own."""
import argparse

from stallbench_lib import cli, common_options

SHARED = {"--out", "--no-build", "--no-report", "--alpha", "--min-effect"}


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.make_parser([])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_shared_option_of_every_command_is_the_common_declaration():
    taken = {}
    for name, command in _commands().items():
        for action in command._actions:
            for option in SHARED & set(action.option_strings):
                assert getattr(action, common_options.DECLARED, False), f"{name} declares {option} itself"
                taken.setdefault(option, []).append((name, action.type, repr(action.default), action.metavar, action.help))
    assert set(taken) == SHARED
    for option, uses in taken.items():
        # one help text too, but --out's says what each command writes there
        assert len({(t, d, m, h if option != "--out" else "") for _, t, d, m, h in uses}) == 1, (option, uses)
    # The commands that write a run take all three; those that only read runs take --out alone.
    assert {n for n, *_ in taken["--no-report"]} <= {n for n, *_ in taken["--out"]}
    assert len(taken["--out"]) >= 13 and len(taken["--no-build"]) >= 10
    # Every command that judges a change takes the same two; history's change points have a test
    # of their own, with its own option (--change-point-alpha), and take --min-effect alone.
    judges = {"compare", "ab", "bisect", "calibrate"}
    assert {n for n, *_ in taken["--alpha"]} == judges
    assert {n for n, *_ in taken["--min-effect"]} == judges | {"history"}


def test_no_command_module_declares_a_shared_option_by_hand():
    import importlib.util
    from pathlib import Path
    for name in cli.command_modules().values():
        module = Path(importlib.util.find_spec(name).origin)
        text = module.read_text()
        for option in SHARED:
            assert f'add_argument("{option}"' not in text, f"{module.name} declares {option} by hand"
