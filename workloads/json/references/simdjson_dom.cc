// simdjson's DOM as its documentation walks a document (doc/basics.md): exceptions on, a reused
// parser, a switch on element.type() and range-for over arrays and objects.
#include <simdjson.h>

#include "../parser.h"

namespace stallbench {

namespace {

void walk(simdjson::dom::element element, WalkAnswer& answer) {
  ++answer.values;
  switch (element.type()) {
    case simdjson::dom::element_type::ARRAY:
      for (simdjson::dom::element child : simdjson::dom::array(element)) walk(child, answer);
      break;
    case simdjson::dom::element_type::OBJECT:
      for (simdjson::dom::key_value_pair field : simdjson::dom::object(element)) {
        answer.string_bytes += field.key.size();
        walk(field.value, answer);
      }
      break;
    case simdjson::dom::element_type::INT64: answer.number_sum += double(int64_t(element)); break;
    case simdjson::dom::element_type::UINT64: answer.number_sum += double(uint64_t(element)); break;
    case simdjson::dom::element_type::DOUBLE: answer.number_sum += double(element); break;
    case simdjson::dom::element_type::STRING: answer.string_bytes += std::string_view(element).size(); break;
    default: break;
  }
}

class DomReference final : public ReferenceWalk {
 public:
  explicit DomReference(std::size_t max_bytes) : parser_(max_bytes) {}
  WalkAnswer walk(const JsonText& json) override {
    WalkAnswer answer;
    stallbench::walk(parser_.parse(json.data(), json.size(), false), answer);
    return answer;
  }

 private:
  simdjson::dom::parser parser_;
};

}  // namespace

std::unique_ptr<ReferenceWalk> simdjson_dom_reference(std::size_t max_bytes) {
  return std::make_unique<DomReference>(std::max<std::size_t>(max_bytes, simdjson::dom::MINIMAL_DOCUMENT_CAPACITY));
}

}  // namespace stallbench
