#include "setup.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "line_child.h"

#ifndef STALLBENCH_BROWSER_DIR
#error "STALLBENCH_BROWSER_DIR must name workloads/browser (set by CMake)"
#endif

namespace stallbench::browser {
namespace {

constexpr double kVersionTimeoutS = 30;

std::string on_path(const std::string& name) {
  const char* search = std::getenv("PATH");
  std::istringstream dirs(search != nullptr ? search : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

std::string browser_dir() { return STALLBENCH_BROWSER_DIR; }

std::string find_chromium() {
  if (const char* given = std::getenv("STALLBENCH_CHROMIUM"); given != nullptr) {
    std::string path = given;
    if (path.empty() || path == "none") return "";
    return ::access(path.c_str(), X_OK) == 0 ? path : "";
  }
  for (const char* name : {"chromium", "chromium-browser"})
    if (std::string found = on_path(name); !found.empty()) return found;
  return "";
}

std::string chromium_version(const std::string& chromium) {
  // "Chromium 156.0.8078.114 built on Debian ...": the first dotted run of digits.
  std::string line = first_line_of({chromium, "--version"}, kVersionTimeoutS);
  for (auto start = line.find_first_of("0123456789"); start != std::string::npos;
       start = line.find_first_of("0123456789", start + 1)) {
    std::string run = line.substr(start, line.find_first_not_of("0123456789.", start) - start);
    if (run.find('.') != std::string::npos) return run;
    start += run.size();
  }
  return "";
}

std::string find_playwright() {
  const char* deps = std::getenv("STALLBENCH_DEPS");
  std::filesystem::path base = deps != nullptr && *deps != '\0' ? std::filesystem::path(deps)
                                                                 : std::filesystem::path(browser_dir()) / "../../.deps";
  auto package = base / "npm" / "browser" / "node_modules" / "playwright-core";
  return std::filesystem::exists(package / "package.json") ? std::filesystem::weakly_canonical(package).string() : "";
}

std::string why_unavailable() {
  if (find_chromium().empty())
    return "no Chromium (install Debian's chromium: scripts/bootstrap; or set STALLBENCH_CHROMIUM to a Chromium binary)";
  return "";
}

}  // namespace stallbench::browser
