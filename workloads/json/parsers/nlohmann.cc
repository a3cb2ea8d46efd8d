// nlohmann::json: the convenient DOM most C++ code reaches for. Every value becomes a node of its
// own (objects are std::maps), so it allocates per value and is the slowest here; there is no
// parser state to reuse, so steady state only gains from the allocator's recycled memory.
#include <nlohmann/json.hpp>

#include "../parser.h"

namespace stallbench {

namespace {

constexpr const char* kName = "nlohmann";

nlohmann::json parse(const JsonText& json) {
  try {
    return nlohmann::json::parse(json.data(), json.data() + json.size());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based (the position of the last character read); offsets here count from 0.
    throw ParseError(kName, e.what(), e.byte > 0 ? e.byte - 1 : 0);
  }
}

void visit(const nlohmann::json& v, WalkAnswer& answer) {
  ++answer.values;
  if (v.is_array()) {
    for (const auto& child : v) visit(child, answer);
  } else if (v.is_object()) {
    for (const auto& [key, child] : v.items()) {
      answer.string_bytes += key.size();
      visit(child, answer);
    }
  } else if (v.is_string()) {
    answer.string_bytes += v.get_ref<const std::string&>().size();
  } else if (v.is_number()) {
    answer.number_sum += v.get<double>();
  }
}

class Nlohmann final : public JsonParser {
 public:
  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    nlohmann::json doc = parse(json);
    RecordAnswer answer;
    for (const auto& record : doc) {
      answer.add(record.at(task.id).get<std::uint64_t>(), record.at(task.a).get<double>(),
                 record.at(task.b).get<double>(), record.at(task.text).get_ref<const std::string&>().size());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    WalkAnswer answer;
    visit(parse(json), answer);
    return answer;
  }
};

}  // namespace

ParserEntry nlohmann_parser() {
  return {kName, "nlohmann-json",
          std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
              std::to_string(NLOHMANN_JSON_VERSION_PATCH),
          false, [](std::size_t) { return std::make_unique<Nlohmann>(); }};
}

}  // namespace stallbench
