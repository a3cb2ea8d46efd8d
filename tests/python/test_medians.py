"""One median everywhere: the middle value, or the mean of the two middle values, from
stallbench_lib/medians.py; a plot's representative item is the lower middle one. No module of
the command computes a median any other way (the history page once quoted an upper median in its
table and a lower one on its plot)."""
import re

import numpy as np
import pytest

from conftest import ROOT
from stallbench_lib.medians import median, middle
from stallbench_lib.rendering import stats

ELSEWHERE = re.compile(r"statistics\.median|np\.median|numpy\.median|median_(low|high)|\[\s*len\([^]]*\)\s*//\s*2\s*\]")


def test_the_median_of_an_even_count_is_the_mean_of_the_middle_two():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    assert median(np.array([10.0, 1.0])) == 5.5
    assert stats.median([]) is None and stats.median([1.0, 2.0]) == 1.5
    with pytest.raises(Exception):
        median([])


def test_middle_is_an_item_the_lower_of_an_even_count():
    assert middle([3, 1, 2]) == 2
    assert middle([4, 1, 3, 2]) == 2
    assert middle({"a": 5.0, "b": 1.0, "c": 9.0, "d": 7.0}, key={"a": 5.0, "b": 1.0, "c": 9.0, "d": 7.0}.get) == "a"


def test_no_module_computes_a_median_its_own_way():
    library = ROOT / "scripts" / "stallbench_lib"
    found = [f"{path.relative_to(library)}:{n}" for path in sorted(library.rglob("*.py")) if path.name != "medians.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if ELSEWHERE.search(line)]
    assert found == []
