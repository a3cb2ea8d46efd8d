"""Profiles: which grid tier each parameter uses and how many repetitions each cell gets."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    tier: str          # "smoke", "values" (the default grid) or "full"
    repetitions: int
    doc: str


PROFILES = {
    p.name: p
    for p in [
        Profile("smoke", "smoke", 2, "smallest grid, 2 repetitions: seconds; what the tests run"),
        Profile("quick", "values", 3, "the default grid, 3 repetitions: a few minutes on 2 cores (default)"),
        Profile("nightly", "values", 9, "the default grid, 9 repetitions: for night-to-night comparison"),
        Profile("full", "full", 5, "the widest grid, 5 repetitions: for studies"),
    ]
}
DEFAULT = "quick"
