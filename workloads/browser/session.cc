#include "session.h"

#include "setup.h"

namespace stallbench::browser {
namespace {

constexpr double kStartTimeoutS = 120;  // a browser's first start on a loaded 2-core machine takes seconds
constexpr double kReplyMarginS = 30;    // beyond the driver's own limit, before we stop waiting for it

nlohmann::json parse_line(const std::string& line) {
  try {
    return nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {  // not JSON, or a number past a double's range
    throw std::runtime_error("the browser driver printed something other than JSON: " + line.substr(0, 200));
  }
}

}  // namespace

BrowserSession::BrowserSession(const SessionSetup& setup) {
  std::string driver = browser_dir() + "/driver/" + setup.driver;
  driver_ = std::make_unique<LineChild>(std::vector<std::string>{setup.node, driver, "--browser", setup.browser,
                                                                 "--executable", setup.executable, "--library",
                                                                 setup.library, "--pages", browser_dir() + "/pages"});
  try {
    nlohmann::json ready = parse_line(driver_->read_line(kStartTimeoutS));
    version_ = ready.at("version").get<std::string>();
  } catch (const LineTimeout&) {
    throw std::runtime_error("timeout: the browser did not start within " + std::to_string(int(kStartTimeoutS)) + " s");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("the browser driver did not start (its messages are in the cell's log): ") +
                             e.what());
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error("the browser driver's first line is not its ready line");
  }
}

PageRun BrowserSession::run(const PageRequest& request) { return parse_page_run(ask(request.to_json(), request.limit_s)); }

nlohmann::json BrowserSession::ask(const nlohmann::json& request, double limit_s) {
  driver_->write_line(request.dump());
  std::string line;
  try {
    line = driver_->read_line(limit_s + kReplyMarginS);
  } catch (const LineTimeout&) {
    alive_ = false;
    driver_->kill();
    throw std::runtime_error("timeout: the browser driver did not answer within " +
                             std::to_string(int(limit_s + kReplyMarginS)) + " s");
  } catch (const std::runtime_error&) {
    alive_ = false;
    throw;
  }
  nlohmann::json reply = parse_line(line);
  if (reply.contains("error") && reply.at("error").get<std::string>().rfind("timeout", 0) == 0) alive_ = false;
  return reply;
}

}  // namespace stallbench::browser
