// The repetition records' framing (benches/harness/records.h): one JSON object per line on a pipe the
// orchestrator reads line by line. Whatever text a record carries — an engine's error message quoting
// a user's pattern, a metric or sub-case name — must stay inside its one line: any bytes, cut into a
// status, a detail, a metric and a sub-case by the input's own 0xff bytes, make records that hold no
// raw newline or carriage return, parse back as one JSON object, and keep every string that was valid
// UTF-8 as it was given (invalid UTF-8 is replaced, never a second line or a parse error).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "benches/harness/records.h"

namespace {

std::vector<std::string> fields(const std::uint8_t* data, std::size_t size, std::size_t count) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0xff && out.size() < count) out.emplace_back();
    else out.back().push_back(static_cast<char>(data[i]));
  }
  out.resize(count);
  return out;
}

bool valid_utf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();  // throws type_error 316 on invalid UTF-8
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

// One record line: whole (no raw line break), and one JSON object.
nlohmann::json parsed(const std::string& line) {
  if (line.find('\n') != std::string::npos || line.find('\r') != std::string::npos) std::abort();
  nlohmann::json record = nlohmann::json::parse(line);  // throws (a crash here) unless it is JSON
  if (!record.is_object()) std::abort();
  return record;
}

// A string given as valid UTF-8 comes back as given.
void kept(const nlohmann::json& found, const std::string& given) {
  if (valid_utf8(given) && found != given) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stallbench::bench;
  auto f = fields(data, size, 5);
  const std::string &status = f[0], &detail = f[1], &metric = f[2], &key = f[3], &value = f[4];
  nlohmann::json failed = parsed(failed_record(3, status, detail));
  kept(failed["status"], status);
  kept(failed["detail"], detail);
  nlohmann::json ended = parsed(end_record(3, 2.5, {Value{metric, std::nullopt, {{key, value}}, 1.5}}));
  kept(ended["values"][0]["metric"], metric);
  if (valid_utf8(key)) kept(ended["values"][0]["subcase"][key], value);
  parsed(start_record(static_cast<int>(size)));
  return 0;
}
