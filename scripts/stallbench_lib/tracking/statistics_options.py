"""--alpha and --min-effect, the statistics options of every command that judges a change (compare,
ab, bisect, calibrate, history), declared once: one meaning, one type, one default wherever they
appear (tests/python/test_common_options.py checks every command against them). A command passes
their values to `thresholds`, the one parser of `--min-effect PCT|METRIC=PCT`."""
import re

from .. import numbers
from ..common_options import mark
from ..errors import UsageError
from .comparison import Thresholds
from .verdict import DEFAULT_ALPHA, DEFAULT_MIN_EFFECT_PCT

METRIC = re.compile(r"[A-Za-z0-9_]+")


def add(parser) -> None:
    """Both options: the commands that judge two sides (compare, ab, bisect, calibrate)."""
    min_effect(parser)
    mark(parser.add_argument(
        "--alpha", type=numbers.decimal_option, default=DEFAULT_ALPHA, metavar="A",
        help="significance level: a change is significant when its p-value is under A, and a regression counts "
             f"for the exit code when its q-value (Benjamini-Hochberg, over the metrics judged) is (default {DEFAULT_ALPHA:g})"))


def min_effect(parser) -> None:
    """--min-effect alone: history's change points have a test of their own (--change-point-alpha)."""
    mark(parser.add_argument(
        "--min-effect", action="append", default=[], metavar="PCT|METRIC=PCT",
        help=f"smallest change called a regression: PCT for every metric (default {DEFAULT_MIN_EFFECT_PCT:g}), "
             "METRIC=PCT for one (repeatable); a metric's own declaration beats the default, METRIC=PCT beats both"))


def _percent(text: str, item: str) -> float:
    value = numbers.decimal(text)
    if value is None or not 0 < value <= 1000:
        raise UsageError(f"--min-effect {item}: expected a percentage in (0, 1000], e.g. 5 or wall_ms=2")
    return value


def thresholds(min_effect: list[str], alpha: float = DEFAULT_ALPHA) -> Thresholds:
    """The options' values (`--min-effect` items as given) parsed, or one UsageError naming the value
    that is wrong and what is valid. history takes --min-effect alone: alpha keeps its default."""
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha {alpha:g} is out of range: valid values are between 0 and 1, e.g. {DEFAULT_ALPHA:g}")
    result = Thresholds(alpha=alpha)
    for item in min_effect:
        metric, eq, pct = item.rpartition("=")
        if eq and not METRIC.fullmatch(metric):
            raise UsageError(f"--min-effect {item}: expected PCT or METRIC=PCT")
        if eq:
            result.per_metric[metric] = _percent(pct, item)
        else:
            result.min_effect_pct = _percent(pct, item)
    return result


def arguments(min_effect: list[str], alpha: float) -> list[str]:
    """The same options, to pass on to another command (calibrate's trials run ab)."""
    return ["--alpha", repr(alpha), *(x for item in min_effect for x in ("--min-effect", item))]
