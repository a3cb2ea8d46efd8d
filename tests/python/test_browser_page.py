"""`stallbench page`: bad input is one line and exit 2 before anything starts (a URL beyond
loopback is refused without a request), or once the browser finds it (an element that never
appears), leaving no run behind; a multi-page site measured with an interaction script in each
browser gives its documents, interactions and INP with phases that add up."""
import json

import pytest

from conftest import ROOT, stallbench
from stallbench_lib.families.browser import page_input
from stallbench_lib.errors import UsageError
from stallbench_lib.tidy import read_csv
from test_browser import needs_browser, needs_firefox

KNOWN = ROOT / "workloads" / "browser" / "reference" / "known_tasks.html"
SHOP = ROOT / "workloads" / "browser" / "sites" / "shop" / "index.html"
SHOP_STEPS = ROOT / "workloads" / "browser" / "sites" / "shop.steps.json"
CLICK_DURING_TASK = ROOT / "tests" / "python" / "data" / "pages" / "click_during_task"
AFTER_NAVIGATION = ROOT / "tests" / "python" / "data" / "pages" / "place_after_navigation"
LOOPBACK_ONLY = ROOT / "tests" / "python" / "data" / "loopback_only"


def _one_line_exit_2(result, *words):
    assert result.returncode == 2, result.stdout + result.stderr
    said = result.stderr.strip().splitlines()
    assert len(said) == 1 and all(w in said[0] for w in words), result.stderr
    assert "Traceback" not in result.stderr


def _page_rows(tmp_path, page, script, browser, *extra):
    """One repetition of `page PAGE --script SCRIPT` in `browser`: it exits 0; its rows."""
    result = stallbench("page", str(page), "--script", str(script), "--browser", browser, "--repetitions", "1", *extra,
                        "--no-build", "--no-report", "--out", str(tmp_path), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return read_csv(next(tmp_path.glob("*/results.csv")))


def _ok(rows):
    return {r.metric: r.value for r in rows if r.status == "ok"}


def test_a_url_beyond_loopback_is_refused_before_any_request(monkeypatch, tmp_path):
    def no_request(*args, **kwargs):
        raise AssertionError("a request was made")
    monkeypatch.setattr(page_input.urllib.request, "build_opener", no_request)
    # "::" is an address that is not loopback, and one no connection can leave the machine for
    for url in ("http://[::]/", "https://example.com/shop", "http://shop.invalid:8080/x"):
        with pytest.raises(UsageError, match="not this machine's loopback"):
            page_input.check_page(url)
    # the command itself, with a guard that fails any lookup or connection beyond loopback and notes it
    attempts = tmp_path / "attempts"
    guard = {"PYTHONPATH": str(LOOPBACK_ONLY), "LOOPBACK_ONLY_LOG": str(attempts)}
    _one_line_exit_2(stallbench("page", "http://shop.invalid/", "--no-build", env=guard), "shop.invalid", "127.0.0.1")
    assert not attempts.exists(), attempts.read_text()


def test_a_url_on_loopback_where_nothing_answers_is_refused():
    _one_line_exit_2(stallbench("page", "http://127.0.0.1:9/", "--no-build"), "nothing answers")


@pytest.mark.parametrize("steps, words", [
    ([{"clik": "#buy"}], ["$[0]", "needs exactly one of"]),
    ([{"type": "#q"}], ["$[0]", "type needs text"]),
    ([{"click": "#a"}, {"wait_ms": -1}], ["$[1]", "wait_ms"]),
    ({"click": "#a"}, ["must be a JSON list"]),
])
def test_a_malformed_script_is_refused(tmp_path, steps, words):
    script = tmp_path / "steps.json"
    script.write_text(json.dumps(steps))
    _one_line_exit_2(stallbench("page", str(KNOWN), "--script", str(script), "--no-build"), "--script", *words)


def test_a_missing_page_or_script_is_refused(tmp_path):
    _one_line_exit_2(stallbench("page", str(tmp_path / "nope.html"), "--no-build"), "no such file")
    _one_line_exit_2(stallbench("page", str(KNOWN), "--script", str(tmp_path / "s.json"), "--no-build"), "no such file")


@needs_browser
def test_an_element_that_never_appears_is_one_line_and_leaves_no_run(tmp_path):
    script = tmp_path / "steps.json"
    script.write_text(json.dumps([{"click": "#no-such-button"}]))
    out = tmp_path / "runs"
    result = stallbench("page", str(KNOWN), "--script", str(script), "--browser", "chromium", "--repetitions", "1",
                        "--step-timeout-ms", "500", "--wait-ms", "0", "--no-build", "--no-report", "--out", str(out),
                        timeout=600)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "the selector #no-such-button never appeared" in result.stderr.strip().splitlines()[-1]
    assert not any(out.glob("*/results.csv"))


@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_a_site_with_an_interaction_script_gives_its_pages_and_interactions(tmp_path, browser):
    rows = _page_rows(tmp_path, SHOP, SHOP_STEPS, browser)
    one = _ok(rows)
    assert one["documents"] == 3  # the list, an item, the cart
    assert one["clicks"] == 6     # the filter's, the item's, two adds, the cart link, checkout
    assert one["interactions"] >= 1 and one["refused_hosts"] >= 0
    assert one["inp_ms"] == pytest.approx(one["inp_input_delay_ms"] + one["inp_processing_ms"] + one["inp_presentation_ms"])
    assert one["inp_ms"] in [r.value for r in rows if r.metric == "interaction_ms"]
    assert ("longtasks" in one) == (browser == "chromium")  # Firefox has no longtask entries: no row, never 0
    assert any(p.name.startswith(browser) for p in next(tmp_path.glob("*/page-details")).iterdir())


@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_a_scripts_click_during_a_long_task_is_sent_during_it_and_waits_for_its_end(tmp_path, browser):
    """The script clicks #target 300 ms into a 2 s task, when the page cannot say where #target is:
    the click goes where the page's answer for #start's click placed it, so it waits for the rest of
    the task, and its interaction (INP: the page's longest) is mostly input delay. A driver that
    waited for the page's answer would click after the task: an input delay of a frame or so, less
    than the rest of the interaction. web-vitals, in the same page, gives the same INP (scripts/test
    installs its npm set, web-metrics)."""
    one = _ok(_page_rows(tmp_path, CLICK_DURING_TASK / "index.html", CLICK_DURING_TASK / "steps.json", browser,
                         "--reference", "web-vitals"))
    assert one["clicks"] == 2 and one["interactions"] >= 2
    inp = {k: v for k, v in one.items() if k.startswith("inp_")}
    assert one["inp_input_delay_ms"] > one["inp_processing_ms"] + one["inp_presentation_ms"], inp
    assert one["inp_web_vitals_ms"] == one["inp_ms"], inp


@pytest.mark.parametrize("browser", [
    pytest.param("chromium", marks=needs_browser),
    pytest.param("firefox", marks=needs_firefox)])
def test_a_click_in_a_busy_new_document_waits_for_its_place_there(tmp_path, browser):
    """The script follows a link and clicks #target while the new page is busy: the place #target had
    in the first page is not used (a navigation began since), so the click waits for the new page's
    answer and lands on its #target, whose listener writes #clicked; the run exits 0 only then."""
    one = _ok(_page_rows(tmp_path, AFTER_NAVIGATION / "index.html", AFTER_NAVIGATION / "steps.json", browser))
    assert one["documents"] == 2 and one["clicks"] == 2
