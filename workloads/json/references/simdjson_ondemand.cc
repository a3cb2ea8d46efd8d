// simdjson On-Demand as its documentation walks a whole document (doc/basics.md, "recursive"
// traversal): exceptions on, a reused parser, value.type() then get_array / get_object /
// get_double / get_string, unescaped keys.
#include <simdjson.h>

#include "../parser.h"

namespace stallbench {

namespace od = simdjson::ondemand;

namespace {

void walk(od::value element, WalkAnswer& answer) {
  ++answer.values;
  switch (element.type()) {
    case od::json_type::array:
      for (auto child : element.get_array()) walk(child.value(), answer);
      break;
    case od::json_type::object:
      for (auto field : element.get_object()) {
        answer.string_bytes += std::string_view(field.unescaped_key()).size();
        walk(field.value(), answer);
      }
      break;
    case od::json_type::number: answer.number_sum += double(element.get_double()); break;
    case od::json_type::string: answer.string_bytes += std::string_view(element.get_string()).size(); break;
    case od::json_type::boolean: (void)bool(element.get_bool()); break;
    case od::json_type::null: (void)element.is_null(); break;
  }
}

class OnDemandReference final : public ReferenceWalk {
 public:
  explicit OnDemandReference(std::size_t max_bytes) : parser_(max_bytes) {}
  WalkAnswer walk(const JsonText& json) override {
    od::document doc = parser_.iterate(json.data(), json.size(), json.capacity());
    WalkAnswer answer;
    if (doc.is_scalar()) {  // a bare number, string, true, false or null
      ++answer.values;
      if (doc.type() == od::json_type::number) answer.number_sum += double(doc.get_double());
      if (doc.type() == od::json_type::string) answer.string_bytes += std::string_view(doc.get_string()).size();
      return answer;
    }
    stallbench::walk(doc.get_value(), answer);
    return answer;
  }

 private:
  od::parser parser_;
};

}  // namespace

std::unique_ptr<ReferenceWalk> simdjson_ondemand_reference(std::size_t max_bytes) {
  return std::make_unique<OnDemandReference>(max_bytes);
}

}  // namespace stallbench
