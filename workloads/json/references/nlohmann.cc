// nlohmann::json as its documentation reads a parsed value without copies: json::parse, then a
// switch on type() and get_ref to the underlying std::map, std::vector and std::string.
#include <nlohmann/json.hpp>

#include "../parser.h"

namespace stallbench {

namespace {

using json = nlohmann::json;

void walk(const json& value, WalkAnswer& answer) {
  ++answer.values;
  switch (value.type()) {
    case json::value_t::array:
      for (const json& child : value.get_ref<const json::array_t&>()) walk(child, answer);
      break;
    case json::value_t::object:
      for (const auto& [key, child] : value.get_ref<const json::object_t&>()) {
        answer.string_bytes += key.size();
        walk(child, answer);
      }
      break;
    case json::value_t::string: answer.string_bytes += value.get_ref<const json::string_t&>().size(); break;
    case json::value_t::number_integer: answer.number_sum += double(value.get<json::number_integer_t>()); break;
    case json::value_t::number_unsigned: answer.number_sum += double(value.get<json::number_unsigned_t>()); break;
    case json::value_t::number_float: answer.number_sum += value.get<json::number_float_t>(); break;
    default: break;
  }
}

class NlohmannReference final : public ReferenceWalk {
 public:
  WalkAnswer walk(const JsonText& json) override {
    WalkAnswer answer;
    stallbench::walk(json::parse(json.data(), json.data() + json.size()), answer);
    return answer;
  }
};

}  // namespace

std::unique_ptr<ReferenceWalk> nlohmann_reference() { return std::make_unique<NlohmannReference>(); }

}  // namespace stallbench
