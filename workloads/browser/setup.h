// What the browser family needs on this machine, and where it is: Debian's Chromium, the pinned
// playwright-core (scripts/packages/npm/browser, installed by `scripts/bootstrap --npm browser`
// into $STALLBENCH_DEPS, default .deps/ in the checkout) and this folder's driver and pages.
#pragma once

#include <string>

namespace stallbench::browser {

// $STALLBENCH_CHROMIUM when set (a path; "" or "none" for no browser at all), else `chromium` or
// `chromium-browser` on PATH; "" when there is none.
std::string find_chromium();

// "156.0.8078.114" from `chromium --version`'s stdout (any line naming the browser; stderr is not
// read); "" when it does not answer.
std::string chromium_version(const std::string& chromium);

// The playwright-core package folder, or "" when it is not installed.
std::string find_playwright();

// Why the family cannot run here (one sentence saying what to install), or "".
std::string why_unavailable();

// workloads/browser/ in the source tree: the drivers (driver/) and the pages (pages/).
std::string browser_dir();

}  // namespace stallbench::browser
