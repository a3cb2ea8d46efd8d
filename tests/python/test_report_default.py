"""The default profile's report, rendered once from a fixture run: its page stays within a size
budget, a per-cell table is collapsed rather than shown, no legend or label covers data in any
figure, and every family's section finds what it reads declared.

The fixture (data/default_run/) is a real `stallbench run` of the default profile on this 2-core
machine: results.csv (gzip) and meta.json, the declarations in it those of the binaries at the
time. Rendering it takes about half a minute on a busy machine: the whole page is drawn once for
the module."""
import gzip
import re
import shutil

import pytest
from matplotlib.figure import Figure

from conftest import DATA
from stallbench_lib.rendering import figures, render, side_by_side

FIXTURE = DATA / "default_run" / "20261202T141105Z-3ce16782"
# About 1.6 times the page as it is (78 KB): every value inline again, as the page once had them,
# would be several hundred kilobytes.
HTML_BUDGET_BYTES = 128 * 1024
# A table left open on the page is a summary; anything longer is a per-cell table to fold away.
VISIBLE_TABLE_ROWS = 25


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """(report directory, {figure title or file: what covers data}) for the fixture run."""
    run = tmp_path_factory.mktemp("runs") / FIXTURE.name
    run.mkdir()
    shutil.copy(FIXTURE / "meta.json", run / "meta.json")
    (run / "results.csv").write_bytes(gzip.decompress((FIXTURE / "results.csv.gz").read_bytes()))
    seen = []  # (figure, title, what covers data): the figure itself kept, so no later figure takes its id
    savefig = Figure.savefig

    def checked_savefig(fig, fname, *args, **kwargs):
        if not any(fig is other for other, _, _ in seen):  # a figure goes out twice: PNG and SVG
            seen.append((fig, fig._suptitle.get_text() if fig._suptitle else
                         next((ax.get_title() for ax in fig.axes if ax.get_title()), "?"), figures.crowding(fig)))
        return savefig(fig, fname, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", checked_savefig)
        patch.setattr(side_by_side, "WORKERS", 1)  # every figure drawn here, where the check above sees it
        out = render.render(run, tmp_path_factory.mktemp("report"))
    return out, {f"{title} (figure {k})": found for k, (_, title, found) in enumerate(seen, 1)}


def test_every_family_has_its_section_and_its_figures(rendered):
    out, crowded = rendered
    page = (out / "index.html").read_text()
    for family in ("browser", "json", "pool", "pool-sweep", "regex", "report", "starvation"):
        assert f'id="family-{family}"' in page and f'href="#family-{family}"' in page
        assert (out / f"values-{family}.csv").exists()
    assert len(crowded) >= 20 and len(list(out.glob("*.png"))) == len(crowded)


def test_the_page_stays_within_its_size_budget(rendered):
    out, _ = rendered
    assert (out / "index.html").stat().st_size < HTML_BUDGET_BYTES


def test_per_cell_tables_are_collapsed(rendered):
    out, _ = rendered
    page = (out / "index.html").read_text()
    visible = re.sub(r"<details.*?</details>", "", page, flags=re.S)
    rows = [table.count("<tr>") for table in re.findall(r"<table>.*?</table>", visible, flags=re.S)]
    assert rows and max(rows) <= VISIBLE_TABLE_ROWS + 1  # + the header row
    assert page.count("<details") >= 6  # pool, pool-sweep, json (parse, walk), report, starvation, browser


def test_no_legend_or_label_covers_data(rendered):
    _, crowded = rendered
    assert {title: found for title, found in crowded.items() if found} == {}
