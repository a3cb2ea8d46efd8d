"""Profiles: which grid tier each parameter uses and how many repetitions each cell gets."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    tier: str          # "smoke", "values" (the default grid), "nightly" or "full"
    repetitions: int
    doc: str
    interleave: bool = False  # repetitions in rounds over the cells, shuffled each round (execute.py)


PROFILES = {
    p.name: p
    for p in [
        Profile("smoke", "smoke", 2, "smallest grid, 2 repetitions: seconds; what the tests run"),
        Profile("quick", "values", 3, "the default grid, 3 repetitions: a few minutes on 2 cores (default)"),
        Profile("nightly", "nightly", 9, "the nightly grid (the default unless a benchmark trims it), 9 "
                "repetitions in shuffled rounds: for night-to-night comparison", interleave=True),
        Profile("full", "full", 5, "the widest grid, 5 repetitions: for studies"),
    ]
}
DEFAULT = "quick"
