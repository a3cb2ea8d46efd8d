// simdjson's DOM parser: stage 1 finds every structural character with SIMD, stage 2 builds a
// tape; the answer is read from the tape. The parser is built with its capacity (simdjson
// 3.0.1's set_max_capacity is broken: it clamps to 32 bytes) and reused, so the steady-state
// parse allocates nothing; a fresh one pays for its buffers at the first parse.
#include <algorithm>

#include "simdjson_common.h"

namespace stallbench {

namespace {

constexpr const char* kName = "simdjson-dom";

class SimdjsonDom final : public JsonParser {
 public:
  // Documents under 32 bytes still get a 32-byte parser (simdjson's minimum).
  explicit SimdjsonDom(std::size_t max_bytes)
      : parser_(std::max<std::size_t>(max_bytes, simdjson::dom::MINIMAL_DOCUMENT_CAPACITY)) {}

  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    simdjson::dom::array records;
    check(parse(json).get_array().get(records), json);
    RecordAnswer answer;
    for (simdjson::dom::element record : records) {
      simdjson::dom::object fields;
      std::uint64_t id = 0;
      double a = 0, b = 0;
      std::string_view text;
      check(record.get_object().get(fields), json);
      check(fields[task.id].get_uint64().get(id), json);
      check(fields[task.a].get_double().get(a), json);
      check(fields[task.b].get_double().get(b), json);
      check(fields[task.text].get_string().get(text), json);
      answer.add(id, a, b, text.size());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    WalkAnswer answer;
    visit(parse(json), answer);
    return answer;
  }

 private:
  simdjson::dom::element parse(const JsonText& json) {
    simdjson::dom::element root;
    check(parser_.parse(reinterpret_cast<const std::uint8_t*>(json.data()), json.size(), false).get(root), json);
    return root;
  }

  static void check(simdjson::error_code error, const JsonText& json) {
    if (error) throw simdjson_parse_error(kName, error, json.size());
  }

  static void visit(simdjson::dom::element e, WalkAnswer& answer) {
    ++answer.values;
    switch (e.type()) {
      case simdjson::dom::element_type::ARRAY:
        for (simdjson::dom::element child : simdjson::dom::array(e)) visit(child, answer);
        break;
      case simdjson::dom::element_type::OBJECT:
        for (simdjson::dom::key_value_pair field : simdjson::dom::object(e)) {
          answer.string_bytes += field.key.size();
          visit(field.value, answer);
        }
        break;
      case simdjson::dom::element_type::STRING:
        answer.string_bytes += std::string_view(e).size();
        break;
      case simdjson::dom::element_type::INT64:
      case simdjson::dom::element_type::UINT64:
      case simdjson::dom::element_type::DOUBLE:
        answer.number_sum += double(e);
        break;
      default:  // true, false, null
        break;
    }
  }

  simdjson::dom::parser parser_;
};

}  // namespace

ParserEntry simdjson_dom_parser() {
  return {kName, "simdjson", simdjson_version(), false,
          [](std::size_t max_bytes) { return std::make_unique<SimdjsonDom>(max_bytes); }, NumberMode::exact,
          simdjson_dom_reference};
}

}  // namespace stallbench
