#include "setup.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

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

const std::vector<BrowserKind>& browser_kinds() {
  static const std::vector<BrowserKind> kinds = {
      {.name = "chromium", .label = "Chromium", .executables = {"chromium", "chromium-browser"},
       .env = "STALLBENCH_CHROMIUM", .package = "chromium", .library = "playwright-core",
       .protocol = "Chrome DevTools Protocol",
       .input = "Input.dispatchMouseEvent: the browser process stamps the event as it receives it"},
      {.name = "firefox", .label = "Firefox", .executables = {"firefox-esr", "firefox"}, .env = "STALLBENCH_FIREFOX",
       .package = "firefox-esr", .library = "puppeteer-core", .protocol = "WebDriver BiDi",
       .input = "synthesizeMouseEvent in the parent process's window (BiDi script.evaluate with system access): "
                "stamped there, then sent to the page as real input"},
  };
  return kinds;
}

const BrowserKind& browser_kind(const std::string& name) {
  for (const auto& kind : browser_kinds())
    if (kind.name == name) return kind;
  throw std::invalid_argument("unknown browser " + name);
}

std::string browser_dir() { return STALLBENCH_BROWSER_DIR; }

std::string find_browser(const BrowserKind& kind) {
  if (const char* given = std::getenv(kind.env.c_str()); given != nullptr) {
    std::string path = given;
    if (path.empty() || path == "none") return "";
    return ::access(path.c_str(), X_OK) == 0 ? path : "";
  }
  for (const auto& name : kind.executables)
    if (std::string found = on_path(name); !found.empty()) return found;
  return "";
}

std::string version_in(const std::vector<std::string>& lines, const std::vector<std::string>& words) {
  // "Chromium 156.0.8078.114 built on Debian ...", "Mozilla Firefox 153.8.0esr": the first dotted
  // run of digits (and the letters of a suffix such as esr) after the browser's name, on whichever
  // line of stdout it is. A launcher's own chatter (Debian's writes shell errors about /dev/shm to
  // stderr, which is not read) never names the browser.
  for (const auto& line : lines) {
    auto name = std::string::npos;
    for (const auto& word : words)
      if (name == std::string::npos) name = line.find(word);
    if (name == std::string::npos) continue;
    for (auto start = line.find_first_of("0123456789", name); start != std::string::npos;
         start = line.find_first_of("0123456789", start)) {
      auto end = line.find_first_not_of("0123456789.", start);
      std::string run = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (run.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(run.back()))) {
        auto suffix = end;
        while (suffix < line.size() && std::isalpha(static_cast<unsigned char>(line[suffix]))) ++suffix;
        return end == std::string::npos ? run : run + line.substr(end, suffix - end);
      }
      start += run.size();
    }
  }
  return "";
}

std::string browser_version(const BrowserKind& kind, const std::string& path) {
  std::vector<std::string> words = {kind.label};
  if (kind.name == "chromium") words.push_back("Chrome");
  // A cold first start on a busy machine can miss the bound: one more try before giving up.
  for (int attempt = 0; attempt < 2; ++attempt)
    if (std::string version = version_in(stdout_lines_of({path, "--version"}, kVersionTimeoutS), words); !version.empty())
      return version;
  return "";
}

std::string find_library(const BrowserKind& kind) {
  const char* deps = std::getenv("STALLBENCH_DEPS");
  std::filesystem::path base = deps != nullptr && *deps != '\0' ? std::filesystem::path(deps)
                                                                 : std::filesystem::path(browser_dir()) / "../../.deps";
  auto package = base / "npm" / "browser" / "node_modules" / kind.library;
  return std::filesystem::exists(package / "package.json") ? std::filesystem::weakly_canonical(package).string() : "";
}

std::string why_unavailable(const BrowserKind& kind) {
  if (find_browser(kind).empty())
    return "no " + kind.label + " (install Debian's " + kind.package + ": scripts/bootstrap; or set " + kind.env +
           " to a " + kind.label + " binary)";
  return "";
}

}  // namespace stallbench::browser
