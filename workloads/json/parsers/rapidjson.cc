// RapidJSON: a fast DOM with a pool allocator. Parsed with kParseFullPrecisionFlag so its doubles
// are correctly rounded like every other parser's here (the default fast path may be off by an
// ulp, which would make the sums disagree), and kParseValidateEncodingFlag so that it, like the
// others, refuses invalid UTF-8 instead of passing it through. A Document's pool never frees until it dies, so each
// parse gets a fresh Document; steady state gains from the allocator's recycled memory.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "../parser.h"

namespace stallbench {

namespace {

constexpr const char* kName = "rapidjson";
constexpr unsigned kFlags = rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag;

void parse(rapidjson::Document& doc, const JsonText& json) {
  doc.Parse<kFlags>(json.data(), json.size());
  if (doc.HasParseError()) throw ParseError(kName, rapidjson::GetParseError_En(doc.GetParseError()), doc.GetErrorOffset());
}

void visit(const rapidjson::Value& v, WalkAnswer& answer) {
  ++answer.values;
  if (v.IsArray()) {
    for (const auto& child : v.GetArray()) visit(child, answer);
  } else if (v.IsObject()) {
    for (const auto& member : v.GetObject()) {
      answer.string_bytes += member.name.GetStringLength();
      visit(member.value, answer);
    }
  } else if (v.IsString()) {
    answer.string_bytes += v.GetStringLength();
  } else if (v.IsNumber()) {
    answer.number_sum += v.GetDouble();
  }
}

const rapidjson::Value& field(const rapidjson::Value& record, const std::string& key) {
  auto it = record.FindMember(rapidjson::StringRef(key.data(), key.size()));
  if (it == record.MemberEnd()) throw std::runtime_error(std::string(kName) + ": a record has no field " + key);
  return it->value;
}

class RapidJson final : public JsonParser {
 public:
  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    rapidjson::Document doc;
    parse(doc, json);
    if (!doc.IsArray()) throw std::runtime_error(std::string(kName) + ": the document is not an array");
    RecordAnswer answer;
    for (const auto& record : doc.GetArray()) {
      if (!record.IsObject()) throw std::runtime_error(std::string(kName) + ": a record is not an object");
      answer.add(field(record, task.id).GetUint64(), field(record, task.a).GetDouble(),
                 field(record, task.b).GetDouble(), field(record, task.text).GetStringLength());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    rapidjson::Document doc;
    parse(doc, json);
    WalkAnswer answer;
    visit(doc, answer);
    return answer;
  }
};

}  // namespace

ParserEntry rapidjson_parser() {
  return {kName, "rapidjson", RAPIDJSON_VERSION_STRING, false,
          [](std::size_t) { return std::make_unique<RapidJson>(); }};
}

}  // namespace stallbench
