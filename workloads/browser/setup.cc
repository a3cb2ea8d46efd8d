#include "setup.h"

#include <unistd.h>

#include <cctype>
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

std::string version_in(const std::vector<std::string>& lines) {
  // "Chromium 156.0.8078.114 built on Debian ...": the first dotted run of digits after the
  // browser's name, on whichever line of stdout it is. A launcher's own chatter (Debian's writes
  // shell errors about /dev/shm to stderr, which is not read) never names the browser.
  for (const auto& line : lines) {
    auto name = line.find("Chromium");
    if (name == std::string::npos) name = line.find("Chrome");
    if (name == std::string::npos) continue;
    for (auto start = line.find_first_of("0123456789", name); start != std::string::npos;
         start = line.find_first_of("0123456789", start)) {
      auto end = line.find_first_not_of("0123456789.", start);
      std::string run = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (run.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(run.back()))) return run;
      start += run.size();
    }
  }
  return "";
}

std::string chromium_version(const std::string& chromium) {
  // A cold first start on a busy machine can miss the bound: one more try before giving up.
  for (int attempt = 0; attempt < 2; ++attempt)
    if (std::string version = version_in(stdout_lines_of({chromium, "--version"}, kVersionTimeoutS)); !version.empty())
      return version;
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
