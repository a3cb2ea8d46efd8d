// A browser driven for the family: driver/long_task.mjs under Node, which starts the browser once
// and then runs one measured page per request. One session per browser serves every cell of a
// bench process.
#pragma once

#include <memory>
#include <string>

#include "line_child.h"
#include "page_run.h"

namespace stallbench::browser {

struct SessionSetup {
  std::string node;        // the Node binary that runs the driver
  std::string browser;     // a BrowserKind's name
  std::string executable;  // find_browser()
  std::string library;     // find_library()
  std::string driver = "long_task.mjs";  // driver/<driver>: long_task.mjs (the family's pages), page.mjs (a user's)
};

class BrowserSession {
 public:
  // Starts the driver and waits until the browser is up. Throws std::runtime_error saying why not.
  explicit BrowserSession(const SessionSetup& setup);

  const std::string& version() const { return version_; }

  // One measured run. Throws std::runtime_error with the page's or the driver's message; one that
  // starts with "timeout" means the run overran request.limit_s, and the session is then over
  // (alive() turns false: the page may still be busy).
  PageRun run(const PageRequest& request);
  // The same for any driver: one request line, one reply (the JSON as the driver gave it).
  nlohmann::json ask(const nlohmann::json& request, double limit_s);
  bool alive() const { return alive_; }

 private:
  std::unique_ptr<LineChild> driver_;
  std::string version_;
  bool alive_ = true;
};

}  // namespace stallbench::browser
