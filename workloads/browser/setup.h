// What the browser family needs on this machine, and where it is: the browsers it drives (Debian's
// Chromium and Firefox ESR, each optional), the pinned driving libraries (scripts/packages/npm/
// browser, installed by `scripts/bootstrap --npm browser` into $STALLBENCH_DEPS, default .deps/ in
// the checkout) and this folder's drivers and pages. The browsers are declared here, once: the
// bench's `browser` parameter, its `browsers` table (read by the orchestrator, `trace --browser`
// and the report) and the drivers' --browser all come from kBrowsers.
#pragma once

#include <string>
#include <vector>

namespace stallbench::browser {

struct BrowserKind {
  std::string name;                      // the `browser` parameter's value, the drivers' --browser
  std::string label;                     // as people write it
  std::vector<std::string> executables;  // looked for on PATH, in this order
  std::string env;                       // a path that overrides PATH ("" or "none": no such browser)
  std::string package;                   // the Debian package (scripts/packages/browser.txt)
  std::string library;                   // the npm package of set `browser` that speaks its protocol
  std::string protocol;
  // How the driver's click reaches the page, and where its event is stamped: the click's time is
  // always its event's own timestamp, so it must be stamped as the browser receives it.
  std::string input;
};

const std::vector<BrowserKind>& browser_kinds();
const BrowserKind& browser_kind(const std::string& name);  // throws std::invalid_argument

// $ENV when set (a path; "" or "none" for no such browser), else the first executable on PATH; ""
// when there is none.
std::string find_browser(const BrowserKind& kind);

// "156.0.8078.114" from `chromium --version`, "153.8.0esr" from `firefox-esr --version` (stdout,
// the first dotted run of digits after the browser's label on any line; stderr is not read); ""
// when it does not answer.
std::string browser_version(const BrowserKind& kind, const std::string& path);
std::string version_in(const std::vector<std::string>& lines, const std::vector<std::string>& words);

// The package folder of the browser's driving library, or "" when it is not installed.
std::string find_library(const BrowserKind& kind);

// Why this browser cannot be driven here (one sentence saying what to install), or "".
std::string why_unavailable(const BrowserKind& kind);

// workloads/browser/ in the source tree: the drivers (driver/) and the pages (pages/).
std::string browser_dir();

}  // namespace stallbench::browser
