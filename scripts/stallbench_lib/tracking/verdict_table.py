"""The verdict table `compare` and `ab` print: one row per cell and metric, worst first, its
verdict, the medians and the test's figures. One set of columns, one way to format each; a command
names the columns its test has (`compare`: ratio and repetitions; `ab`: the 95% interval of the
change and the rounds)."""
from ..rendering import table


def number(value: float | None) -> str | None:
    """Four significant figures, thousands separated below a million (12,345 rather than 1.234e+04)."""
    if value is None:
        return None
    return f"{value:,.0f}" if 1000 <= abs(value) < 1e6 else f"{value:.4g}"


def signed_pct(value: float | None) -> str | None:
    return None if value is None else f"{value:+.2f}%"


def _pct(value: float | None, digits: int) -> str | None:
    return None if value is None else f"{value:.{digits}f}%"


def _interval(c) -> str | None:
    if getattr(c, "ci_low_pct", None) is None:  # instruction counts: no interval, see `rounds`
        return None
    return f"[{c.ci_low_pct:+.2f}%, {c.ci_high_pct:+.2f}%]"


def _note(c) -> str:
    return "; ".join(x for x in (c.kind, c.note) if x)


# name -> (column, the cell of a comparison given the decimals of its spread)
COLUMNS = {
    "verdict": (table.Column("verdict"), lambda c, _: f"**{c.verdict}**" if c.verdict == "regressed" else c.verdict),
    "benchmark": (table.Column("benchmark"), lambda c, _: f"{c.key[0]}/{c.key[1]}"),
    "params": (table.Column("params"), lambda c, _: f"`{c.key[2]}`"),
    "metric": (table.Column("metric"), lambda c, _: f"{c.key[3]} ({c.unit}, {c.better} is better)"),
    "base": (table.number("base"), lambda c, _: number(c.base_median)),
    "current": (table.number("current"), lambda c, _: number(c.current_median)),
    "ratio": (table.number("ratio"), lambda c, _: number(c.ratio)),
    "change": (table.number("change"), lambda c, _: signed_pct(c.change_pct)),
    "interval": (table.number("95% interval"), lambda c, _: _interval(c)),
    "p": (table.number("p"), lambda c, _: None if c.p_value is None else f"{c.p_value:.2g}"),
    "q": (table.number("q"), lambda c, _: None if c.q_value is None else f"{c.q_value:.2g}"),
    "cv": (table.number("cv"), lambda c, d: _pct(c.cv_pct, d)),
    "spread": (table.number("spread"), lambda c, d: _pct(c.cv_pct, d)),
    "detectable": (table.number("detectable"), lambda c, d: _pct(c.detectable_pct, d)),
    "min effect": (table.number("min effect"), lambda c, _: f"{c.min_effect_pct:g}%"),
    "n": (table.number("n"), lambda c, _: f"{c.base_n}/{c.current_n}"),
    "rounds": (table.number("rounds"), lambda c, _: c.base_n),
    "note": (table.Column("note"), lambda c, _: _note(c)),
}


def markdown(comparisons, names: list[str], spread_digits: int) -> str:
    """The table of `comparisons` with the columns `names` (keys of COLUMNS), in that order; the
    spread and detectable effect with `spread_digits` decimals, as the command's notes quote them."""
    chosen = [COLUMNS[n] for n in names]
    return table.markdown([column for column, _ in chosen],
                          [[cell(c, spread_digits) for _, cell in chosen] for c in comparisons],
                          empty="no cell and metric in common")
