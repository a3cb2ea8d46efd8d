// RapidJSON as its tutorial reads a document: Document::Parse with the mode's flags, then a switch
// on GetType() and GetArray / GetObject ranges.
#include <rapidjson/document.h>

#include "../parser.h"
#include "../rapidjson_flags.h"

namespace stallbench {

namespace {

void walk(const rapidjson::Value& value, WalkAnswer& answer) {
  ++answer.values;
  switch (value.GetType()) {
    case rapidjson::kArrayType:
      for (const auto& child : value.GetArray()) walk(child, answer);
      break;
    case rapidjson::kObjectType:
      for (const auto& member : value.GetObject()) {
        answer.string_bytes += member.name.GetStringLength();
        walk(member.value, answer);
      }
      break;
    case rapidjson::kStringType: answer.string_bytes += value.GetStringLength(); break;
    case rapidjson::kNumberType: answer.number_sum += value.GetDouble(); break;
    default: break;
  }
}

template <unsigned Flags>
class RapidJsonReference final : public ReferenceWalk {
 public:
  WalkAnswer walk(const JsonText& json) override {
    rapidjson::Document doc;
    doc.Parse<Flags>(json.data(), json.size());
    if (doc.HasParseError()) throw std::runtime_error("rapidjson reference: parse error");
    WalkAnswer answer;
    stallbench::walk(doc, answer);
    return answer;
  }
};

}  // namespace

std::unique_ptr<ReferenceWalk> rapidjson_reference(NumberMode numbers) {
  if (numbers == NumberMode::fast) return std::make_unique<RapidJsonReference<kRapidJsonFastFlags>>();
  return std::make_unique<RapidJsonReference<kRapidJsonExactFlags>>();
}

}  // namespace stallbench
