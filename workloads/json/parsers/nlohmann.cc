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
  } catch (const nlohmann::json::exception& e) {
    // Its other refusals of a document (out_of_range 406: a number past double's range) carry no
    // position; a refusal is a ParseError all the same, not an exception that escapes the walk.
    throw ParseError(kName, e.what(), 0, false);
  }
}

// nlohmann parses without recursion and has no depth limit; this walk recurses, so it refuses
// what the other parsers refuse (kMaxDepth) instead of overflowing the stack. `depth` counts the
// containers open around `v`. It reads the underlying containers through get_ref, as the library's
// documentation does when it avoids copies: its iterator and items() proxy cost 10-20% more.
void visit(const nlohmann::json& v, WalkAnswer& answer, std::size_t depth) {
  using json = nlohmann::json;
  ++answer.values;
  if (v.is_structured() && depth > kMaxDepth)
    throw ParseError(kName, "nested deeper than " + std::to_string(kMaxDepth) +
                                " levels (the adapter's limit: nlohmann has none of its own)", 0, false);
  switch (v.type()) {
    case json::value_t::array:
      for (const json& child : v.get_ref<const json::array_t&>()) visit(child, answer, depth + 1);
      break;
    case json::value_t::object:
      for (const auto& [key, child] : v.get_ref<const json::object_t&>()) {
        answer.string_bytes += key.size();
        visit(child, answer, depth + 1);
      }
      break;
    case json::value_t::string: answer.string_bytes += v.get_ref<const json::string_t&>().size(); break;
    case json::value_t::number_integer: answer.number_sum += double(v.get<json::number_integer_t>()); break;
    case json::value_t::number_unsigned: answer.number_sum += double(v.get<json::number_unsigned_t>()); break;
    case json::value_t::number_float: answer.number_sum += v.get<json::number_float_t>(); break;
    default: break;
  }
}

class Nlohmann final : public JsonParser {
 public:
  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    nlohmann::json doc = parse(json);
    RecordAnswer answer;
    for (const auto& record : doc) {
      const nlohmann::json& id = record.at(task.id);
      // get<std::uint64_t>() converts a float too, and one past the range (1e300, -1.5) is undefined.
      if (!id.is_number_unsigned()) throw std::runtime_error("nlohmann: a record's " + task.id + " is not an unsigned integer");
      answer.add(id.get<std::uint64_t>(), record.at(task.a).get<double>(),
                 record.at(task.b).get<double>(), record.at(task.text).get_ref<const std::string&>().size());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    WalkAnswer answer;
    visit(parse(json), answer, 1);
    return answer;
  }
};

}  // namespace

ParserEntry nlohmann_parser() {
  return {kName, "nlohmann-json",
          std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
              std::to_string(NLOHMANN_JSON_VERSION_PATCH),
          false, [](std::size_t) { return std::make_unique<Nlohmann>(); }, NumberMode::exact,
          [](std::size_t) { return nlohmann_reference(); }};
}

}  // namespace stallbench
