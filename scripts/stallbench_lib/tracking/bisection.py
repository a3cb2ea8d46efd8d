"""bisect's search: which commit of a first-parent line made BAD worse than GOOD.

The line is GOOD, then each later commit up to BAD (revisions.first_parent_line). Every commit
measured is set against GOOD's own build in a short paired A/B, so each step asks the one
question "is this commit already worse than GOOD?", and the answers stay comparable. A step's
verdict, from the verdicts of the metrics it judged (ab_verdict):

- `regressed`: at least one metric regressed (q < alpha and a change of at least its minimum
  effect in the worse direction, or a process that newly fails): the change came at or before
  this commit.
- `unchanged`: no metric judged can have worsened by its minimum effect: each is unchanged or
  improved, or noisy with the worse end of its 95% interval short of the minimum effect. The
  change came after this commit. (ab's `unchanged` wants the whole interval inside +-the minimum
  effect; the search asks only whether the slowdown is there, so a commit measured a little
  faster than GOOD counts as clean once the worse end clears.)
- `noisy`: none regressed, and a slowdown of the minimum effect still fits in some metric's
  interval once the rounds or the budget ended: the step cannot tell, and the search stops there.
- `skipped`: the commit could not be built or shares no cell with GOOD; the next try is its
  nearest neighbour in the range, as `git bisect skip` does.

The search ends when one commit is left between the last `unchanged` and the first `regressed`
(it is the answer), when a step is `noisy`, or when only skipped commits are left between. A noisy
step makes the search `inconclusive` (power.py): its rounds ended before they could tell; so does a
noisy step 0 (BAD against GOOD), which is not "nothing to bisect" — that needs BAD shown clean."""
from collections.abc import Callable
from dataclasses import dataclass, field

from .ab_verdict import PairedComparison
from .comparison import Outcome
from .revisions import Commit

REGRESSED, UNCHANGED, NOISY, SKIPPED = "regressed", "unchanged", "noisy", "skipped"


@dataclass
class Step:
    number: int                             # 0: BAD confirmed against GOOD; then the search's steps
    position: int                           # in the line (GOOD is 0, BAD the last)
    commit: Commit
    verdict: str
    comparisons: list[PairedComparison] = field(default_factory=list)  # worst first
    minutes: float = 0.0                    # its build and its rounds
    note: str = ""                          # why it was skipped
    runs: dict[str, str] = field(default_factory=dict)  # role -> run directory
    left: int = 0                           # commits that may still be the first regressed one, after it

    @property
    def deciding(self) -> PairedComparison | None:
        """The comparison the verdict rests on: the worst regression, else the noisiest metric."""
        return self.comparisons[0] if self.comparisons else None


def _worse_end_pct(c: PairedComparison) -> float | None:
    """The end of the change's interval in the worse direction (%), None without an interval."""
    if c.ci_low_pct is None or c.ci_high_pct is None:
        return None
    return c.ci_high_pct if c.better == "lower" else -c.ci_low_pct


def _clear(c: PairedComparison) -> bool:
    """No slowdown of the metric's minimum effect fits in what the rounds measured."""
    if c.verdict in ("unchanged", "improved"):
        return True
    worse = _worse_end_pct(c)
    return c.verdict == NOISY and worse is not None and worse < c.min_effect_pct


def step_verdict(outcome: Outcome) -> str:
    judged = outcome.comparisons
    if any(c.verdict == REGRESSED for c in judged):
        return REGRESSED
    return UNCHANGED if judged and all(_clear(c) for c in judged) else NOISY


@dataclass
class Bisection:
    line: list[Commit]
    steps: list[Step] = field(default_factory=list)
    good: int = 0                           # the last position known not to be worse than GOOD
    bad: int = -1                           # the first position known to be worse
    skipped: set[int] = field(default_factory=set)
    confirmed: bool = False                 # BAD regressed against GOOD (step 0): there is something to find
    cleared: bool = False                   # BAD shown not worse than GOOD (step 0 unchanged): nothing to find

    def __post_init__(self):
        self.bad = len(self.line) - 1 if self.bad < 0 else self.bad

    @property
    def untried(self) -> list[int]:
        return [i for i in range(self.good + 1, self.bad) if i not in self.skipped]

    def next_position(self) -> int | None:
        """The untried commit nearest the middle of the range (the older of two as near), or None
        once nothing between is left to try."""
        middle = (self.good + self.bad) / 2
        return min(self.untried, key=lambda i: (abs(i - middle), i), default=None)

    def confirm(self, step: Step) -> None:
        """Step 0, BAD against GOOD: only a regression there leaves something to search for."""
        self.confirmed = step.verdict == REGRESSED
        self.cleared = step.verdict == UNCHANGED
        step.left = self.bad - self.good
        self.steps.append(step)

    def record(self, step: Step) -> None:
        if step.verdict == REGRESSED:
            self.bad = step.position
        elif step.verdict == UNCHANGED:
            self.good = step.position
        elif step.verdict == SKIPPED:
            self.skipped.add(step.position)
        step.left = self.bad - self.good
        self.steps.append(step)

    @property
    def isolated(self) -> Commit | None:
        return self.line[self.bad] if self.confirmed and self.bad - self.good == 1 else None

    @property
    def result(self) -> str:
        if self.cleared:
            return "nothing to bisect"
        if self.isolated:
            return "isolated"
        return "inconclusive" if self.steps and self.steps[-1].verdict == NOISY else "undecidable"

    @property
    def steps_left(self) -> int:
        """Steps a search of the range still takes when no commit is skipped: ceil(log2(commits))."""
        return (self.bad - self.good - 1).bit_length()


def search(bisection: Bisection, measure: Callable[[int], Step],
           told: Callable[[Step, Bisection], None] = lambda step, bisection: None) -> Bisection:
    """Measures the middle of the range until one commit is isolated, a step is noisy, or only
    skipped commits are left; `told` hears of each step once it is recorded."""
    while (position := bisection.next_position()) is not None:
        step = measure(position)
        bisection.record(step)
        told(step, bisection)
        if step.verdict == NOISY:
            break
    return bisection
