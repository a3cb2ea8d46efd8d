"""stallbench page URL-or-FILE: a user's own page in each installed browser. It loads the page (a
local file, its folder served on 127.0.0.1, or a URL on 127.0.0.1), runs an optional interaction
script on it, and reports per browser TBT, INP with its phases, frames per second, long tasks and
long animation frames (Chromium), with the verdicts web developers use, over repetitions (medians
and ranges), as the usual run directory (results.csv, meta.json, report). The measuring is
bench_browser's `page` benchmark (its metrics declared there); --reference measures web-vitals' INP
and Lighthouse's TBT beside it. Bad input is one line and exit 2: checked here before anything starts
(a URL not on loopback, one that does not answer, a missing file, a malformed script), or found by
the browser (a page that does not load, an element that never appears), in which case the run
directory is removed."""
import shutil
import tempfile
from pathlib import Path

from .... import build, catalogue, common_options, node as nodejs, npm_sets, numbers, os_packages, paths
from .. import page_input, page_summary
from ....errors import UsageError
from ....execute import execute, run_meta
from ....plan import make_plan
from ....profiles import PROFILES
from ....rendering.render import announce
from ....commands.run import check_repetitions

NAME = "page"
ORDER = 4
HELP = "measure your own page (a file, or a URL on 127.0.0.1) in each browser: TBT, INP, frames, long tasks"
PATTERN = "^browser/page$"
DETAILS = "page-details"


def add_arguments(p):
    p.add_argument("page", metavar="URL-or-FILE", help="http://127.0.0.1:PORT/PATH, or an HTML file (its folder is served)")
    p.add_argument("--script", metavar="FILE",
                   help="interactions after the load: a JSON list of steps ({\"click\": SEL}, {\"type\": SEL, \"text\": T}, "
                        "{\"press\": KEY}, {\"scroll\": DY}, {\"wait_for\": SEL}, {\"wait_ms\": N}, {\"goto\": PATH}) or "
                        "an .mjs module whose default export gets a page with the same verbs")
    p.add_argument("--browser", default="all", metavar="NAME", help="chromium, firefox or all (default: every installed)")
    p.add_argument("--repetitions", type=numbers.integer_option, default=5, metavar="N", help="loads per browser (default 5)")
    p.add_argument("--wait-ms", type=numbers.integer_option, default=1000, metavar="N",
                   help="quiet watched after the load and after the script (default 1000)")
    p.add_argument("--step-timeout-ms", type=numbers.integer_option, default=10_000, metavar="N",
                   help="how long a step waits for its element before the script counts as bad input (default 10000)")
    p.add_argument("--reference", metavar="LIST", help="measure beside: web-vitals (its INP), lighthouse (its TBT, Chromium)")
    common_options.out(p)
    common_options.no_build(p)
    common_options.no_report(p)


def _inputs(args) -> dict[str, str]:
    check_repetitions(args.repetitions)
    if not 0 <= args.wait_ms <= page_input.MAX_WAIT_MS:
        raise UsageError(f"--wait-ms {args.wait_ms} is out of range: valid values are 0-{page_input.MAX_WAIT_MS}")
    if not 100 <= args.step_timeout_ms <= page_input.MAX_WAIT_MS:
        raise UsageError(f"--step-timeout-ms {args.step_timeout_ms} is out of range: valid values are "
                         f"100-{page_input.MAX_WAIT_MS}")
    references = page_input.check_references(args.reference)
    return {"page": page_input.check_page(args.page), "page_script": page_input.check_script(args.script),
            "page_wait_ms": str(args.wait_ms), "page_step_timeout_ms": str(args.step_timeout_ms),
            "page_references": ",".join(references)}


def run(args) -> int:
    inputs = _inputs(args)
    if not args.no_build:
        os_packages.ensure(["browser"])
    build_dir = paths.build_dir() if args.no_build else build.ensure_built()
    families = [f for f in catalogue.load(build.bench_binaries(build_dir)) if f.name == "browser"]
    if not families:
        raise UsageError(f"bench_browser is not built in {build_dir}: run without --no-build")
    browsers = [row["name"] for row in families[0].tables["browsers"] if not row["missing"]]
    if args.browser != "all":
        if args.browser not in [row["name"] for row in families[0].tables["browsers"]]:
            raise UsageError(f"--browser {args.browser}: unknown (valid: {', '.join(browsers + ['all'])})")
        browsers = [args.browser] if args.browser in browsers else []
    if not browsers:
        raise UsageError("no browser to run: " + "; ".join(r["missing"] for r in families[0].tables["browsers"]))
    sets = (["browser", "web-metrics"] if inputs["page_references"] else ["browser"])
    if problem := npm_sets.install(sets):
        raise UsageError(f"the npm packages the page needs ({', '.join(sets)}) could not be installed: {problem}")
    details = Path(tempfile.mkdtemp(prefix="stallbench-page-"))
    try:
        inputs["page_details"] = str(details)
        cells = make_plan(families, PROFILES["quick"], PATTERN, {"browser": browsers}, tuple(nodejs.choose(None)),
                          inputs=inputs)
        settings = {"command": NAME, "page": args.page, "script": args.script, "repetitions": args.repetitions,
                    "reference": inputs["page_references"], "browsers": browsers}
        result = execute(cells, args.repetitions, args.out or paths.RUNS, run_meta(families, build_dir, settings))
        shutil.copytree(details, result.path / DETAILS)
    finally:
        shutil.rmtree(details, ignore_errors=True)
    rejected = [r for r in result.rows if r.status == "rejected"]
    if rejected:  # the user's page or script: theirs to fix, not a result to keep
        shutil.rmtree(result.path, ignore_errors=True)
        raise UsageError(f"page {args.page}: {rejected[0].detail}")
    print(page_summary.text(result.rows, families[0]))
    announce(result.path, args.no_report)
    failed = result.meta["cells"]["failed"]
    return 0 if failed == 0 else 1
