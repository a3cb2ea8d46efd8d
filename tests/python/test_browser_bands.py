"""web.dev's bands: the edges belong to the better band (TBT 200 ms is good, INP 500 ms needs improvement)."""
import pytest

from stallbench_lib.families.browser.bands import verdict


@pytest.mark.parametrize("value, word", [(0, "good"), (200, "good"), (200.5, "needs improvement"),
                                         (600, "needs improvement"), (600.1, "poor"), (None, None)])
def test_a_value_falls_in_the_band_its_edges_give(value, word):
    assert verdict(value, 200, 600) == word
