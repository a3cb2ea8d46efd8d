#include "records.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "protocol.h"

namespace stallbench::bench {

std::string start_record(int repetition) {
  return nlohmann::json{{"protocol", kProtocolVersion}, {"event", "start"}, {"rep", repetition}}.dump();
}

static std::string ended(int repetition, const nlohmann::json& wall_ms, const std::vector<Value>& values,
                         const std::string& status, const std::string& detail) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : values)
    out.push_back({{"metric", v.metric},
                   {"index", v.index ? nlohmann::json(*v.index) : nlohmann::json(nullptr)},
                   {"subcase", v.subcase},
                   {"value", v.value}});
  // Invalid UTF-8 in a detail (an engine's message quoting input bytes) is replaced, not thrown on.
  return nlohmann::json{{"protocol", kProtocolVersion}, {"event", "end"}, {"rep", repetition}, {"status", status},
                        {"detail", detail}, {"wall_ms", wall_ms}, {"callgrind_dump", callgrind_dump_label(repetition)},
                        {"values", out}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string end_record(int repetition, double wall_ms, const std::vector<Value>& values) {
  return ended(repetition, wall_ms, values, "ok", "");
}

std::string failed_record(int repetition, const std::string& status, const std::string& detail) {
  return ended(repetition, nullptr, {}, status, detail);
}

void write_record(int fd, const std::string& line) {
  if (fd < 0) return;
  std::string text = line + "\n";
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("writing a repetition record: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace stallbench::bench
