// RapidJSON: a fast DOM with a pool allocator, in both of its number modes (the `numbers`
// parameter): `rapidjson` parses with kParseFullPrecisionFlag, so its doubles are correctly
// rounded like simdjson's and nlohmann's; `rapidjson-fast` uses RapidJSON's default fast path,
// which may be off by an ulp on long decimals (the mode its own benchmarks and most users run).
// Both add kParseValidateEncodingFlag so that, like the others, they refuse invalid UTF-8 instead
// of passing it through. A Document's pool never frees until it dies, so each parse gets a fresh
// Document; steady state gains from the allocator's recycled memory.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

#include "../parser.h"
#include "../rapidjson_flags.h"

namespace stallbench {

namespace {

// RapidJSON's recursive parser has no depth limit (100,000 levels of `[` overflow a thread's
// stack), so the Document is populated through this forwarding handler, which stops the parse at
// kMaxDepth through RapidJSON's own termination path.
struct DepthLimited {
  rapidjson::Document& doc;
  std::size_t depth = 0;
  bool exceeded = false;

  bool open() { return !(exceeded = ++depth > kMaxDepth); }
  bool Null() { return doc.Null(); }
  bool Bool(bool b) { return doc.Bool(b); }
  bool Int(int i) { return doc.Int(i); }
  bool Uint(unsigned i) { return doc.Uint(i); }
  bool Int64(std::int64_t i) { return doc.Int64(i); }
  bool Uint64(std::uint64_t i) { return doc.Uint64(i); }
  bool Double(double d) { return doc.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) { return doc.RawNumber(s, n, copy); }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return doc.String(s, n, copy); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return doc.Key(s, n, copy); }
  bool StartObject() { return open() && doc.StartObject(); }
  bool EndObject(rapidjson::SizeType members) { return --depth, doc.EndObject(members); }
  bool StartArray() { return open() && doc.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return --depth, doc.EndArray(elements); }
};

template <unsigned Flags>
void parse(rapidjson::Document& doc, const JsonText& json, const std::string& name) {
  rapidjson::MemoryStream bytes(json.data(), json.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> in(bytes);
  rapidjson::Reader reader;
  DepthLimited limited{doc};
  auto generate = [&](rapidjson::Document&) { return !reader.Parse<Flags>(in, limited).IsError(); };
  doc.Populate(generate);
  if (!reader.HasParseError()) return;
  if (limited.exceeded)
    throw ParseError(name, "nested deeper than " + std::to_string(kMaxDepth) +
                               " levels (the adapter's limit: RapidJSON has none of its own)", reader.GetErrorOffset());
  throw ParseError(name, rapidjson::GetParseError_En(reader.GetParseErrorCode()), reader.GetErrorOffset());
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

template <unsigned Flags>
class RapidJson final : public JsonParser {
 public:
  explicit RapidJson(std::string name) : name_(std::move(name)) {}

  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    rapidjson::Document doc;
    parse<Flags>(doc, json, name_);
    if (!doc.IsArray()) throw std::runtime_error(name_ + ": the document is not an array");
    RecordAnswer answer;
    for (const auto& record : doc.GetArray()) {
      if (!record.IsObject()) throw std::runtime_error(name_ + ": a record is not an object");
      const rapidjson::Value& id = field(record, task.id);
      const rapidjson::Value& a = field(record, task.a);
      const rapidjson::Value& b = field(record, task.b);
      const rapidjson::Value& text = field(record, task.text);
      // RapidJSON's getters only assert the type (compiled out in a release build): unchecked, a
      // float id or a string amount would be read as whatever bits the value holds.
      if (!id.IsUint64()) throw std::runtime_error(name_ + ": a record's " + task.id + " is not an unsigned integer");
      if (!a.IsNumber()) throw std::runtime_error(name_ + ": a record's " + task.a + " is not a number");
      if (!b.IsNumber()) throw std::runtime_error(name_ + ": a record's " + task.b + " is not a number");
      if (!text.IsString()) throw std::runtime_error(name_ + ": a record's " + task.text + " is not a string");
      answer.add(id.GetUint64(), a.GetDouble(), b.GetDouble(), text.GetStringLength());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    rapidjson::Document doc;
    parse<Flags>(doc, json, name_);
    WalkAnswer answer;
    visit(doc, answer);
    return answer;
  }

 private:
  const rapidjson::Value& field(const rapidjson::Value& record, const std::string& key) const {
    auto it = record.FindMember(rapidjson::StringRef(key.data(), key.size()));
    if (it == record.MemberEnd()) throw std::runtime_error(name_ + ": a record has no field " + key);
    return it->value;
  }

  std::string name_;
};

template <unsigned Flags>
ParserEntry entry(const char* name, NumberMode numbers) {
  return {name, "rapidjson", RAPIDJSON_VERSION_STRING, false,
          [name](std::size_t) { return std::make_unique<RapidJson<Flags>>(name); }, numbers,
          [numbers](std::size_t) { return rapidjson_reference(numbers); }};
}

}  // namespace

ParserEntry rapidjson_parser() { return entry<kRapidJsonExactFlags>("rapidjson", NumberMode::exact); }
ParserEntry rapidjson_fast_parser() { return entry<kRapidJsonFastFlags>("rapidjson-fast", NumberMode::fast); }

}  // namespace stallbench
