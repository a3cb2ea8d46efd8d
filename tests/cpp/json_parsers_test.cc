// Every parser compiled in, on every shape: the record task gives exactly the generator's answer;
// the walk of every shape gives the generator's walk answer, and so does each parser's reference
// walk; On-Demand's steppers (array and NDJSON) give the same answer whatever the records per
// step; malformed, truncated, too deep and non-UTF-8 documents are refused with a ParseError (with
// a byte offset inside the document where the parser gives one) and a printable message.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "workloads/json/documents.h"
#include "workloads/json/parser.h"
#include "workloads/json/payload.h"

using namespace stallbench;

namespace {

std::vector<const Shape*> record_shapes() {
  std::vector<const Shape*> found;
  for (const auto& name : record_shape_names()) found.push_back(&find_shape(name));
  return found;
}

std::vector<std::string> all_parsers() {
  std::vector<std::string> names;
  for (const auto& p : parsers()) names.push_back(p.name);
  return names;
}

class EveryParser : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST(Parsers, AllFiveAreCompiledIn) {
  // The build found every library (scripts/packages/json.txt lists them).
  EXPECT_EQ(all_parsers(), (std::vector<std::string>{"simdjson-dom", "simdjson-ondemand", "nlohmann", "rapidjson",
                                                     "rapidjson-fast", "boost-json"}));
}

TEST(Payload, OrdersAreWhatJsonStringifyWrites) {
  Payload p = generate_payload(find_shape("orders"), 2, Layout::array);
  EXPECT_EQ(p.json.view(),
            R"([{"orderId":0,"isbn":"9780441172719","quantity":2,"unitPrice":349.9,"status":"Paid"},)"
            R"({"orderId":1,"isbn":"9780441172719","quantity":2,"unitPrice":349.9,"status":"Paid"}])");
  EXPECT_EQ(p.expected.records, 2u);
  EXPECT_EQ(p.expected.id_sum, 1u);
  EXPECT_EQ(p.expected.text_bytes, 8u);
  // 1,000,000 of them are the seed's 84.8 MB (MiB: payload.length / 1024 / 1024).
  EXPECT_NEAR(static_cast<double>(generate_payload(find_shape("orders"), 1'000'000, Layout::array).json.size()) / 1048576,
              84.8, 0.05);
}

TEST(Payload, NdjsonHasTheSameAnswer) {
  for (const Shape* shape : record_shapes()) {
    EXPECT_EQ(generate_payload(*shape, 1000, Layout::array).expected, generate_payload(*shape, 1000, Layout::ndjson).expected);
  }
}

TEST_P(EveryParser, RecordTaskOnEveryShape) {
  for (const Shape* record_shape : record_shapes()) {
    const Shape& shape = *record_shape;
    Payload p = generate_payload(shape, 3000, Layout::array);
    auto parser = find_parser(GetParam()).make(p.json.size());
    EXPECT_EQ(parser->sum_records(p.json, shape.task), p.expected) << shape.name;
    EXPECT_EQ(parser->sum_records(p.json, shape.task), p.expected) << shape.name << ", parser reused";
  }
}

TEST_P(EveryParser, WalkAgreesWithSimdjsonDom) {
  for (const Shape* record_shape : record_shapes()) {
    const Shape& shape = *record_shape;
    Payload p = generate_payload(shape, 500, Layout::array);
    WalkAnswer reference = find_parser("simdjson-dom").make(p.json.size())->walk(p.json);
    WalkAnswer walked = find_parser(GetParam()).make(p.json.size())->walk(p.json);
    EXPECT_TRUE(walked.agrees_with(reference)) << walked.describe() << " vs " << reference.describe();
    // Every record: 1 object + its fields' values, plus the array itself.
    EXPECT_EQ(walked.values, 1 + 500 * (1 + shape.fields.size()));
  }
}

TEST_P(EveryParser, EveryShapeWalksToTheGeneratorsAnswerAndSoDoesItsReference) {
  const ParserEntry& entry = find_parser(GetParam());
  for (const auto& shape : shapes()) {
    Document doc = generate_document(shape, 48 * 1024);
    EXPECT_GE(doc.json.size(), 48u * 1024) << shape.name;
    auto parser = entry.make(doc.json.size());
    auto reference = entry.reference(doc.json.size());
    for (int reused = 0; reused < 2; ++reused) {
      WalkAnswer walked = parser->walk(doc.json), referenced = reference->walk(doc.json);
      EXPECT_TRUE(walked.agrees_with(doc.expected)) << shape.name << ": " << walked.describe() << " vs " << doc.expected.describe();
      EXPECT_TRUE(referenced.agrees_with(walked)) << shape.name << ": " << referenced.describe() << " vs " << walked.describe();
    }
  }
}

TEST_P(EveryParser, RefusesNestingBeyondTheSharedLimitWithoutCrashing) {
  auto nest = [](std::size_t levels) { return JsonText(std::string(levels, '[') + std::string(levels, ']')); };
  JsonText deepest_allowed = nest(kMaxDepth - 1), too_deep = nest(100'000);
  auto parser = find_parser(GetParam()).make(too_deep.size());
  EXPECT_EQ(parser->walk(deepest_allowed).values, kMaxDepth - 1);
  try {
    parser->walk(too_deep);
    ADD_FAILURE() << GetParam() << " accepted 100,000 levels";
  } catch (const ParseError& e) {
    std::string what = e.what();
    EXPECT_TRUE(what.find("deep") != std::string::npos) << what;  // each parser's own words for it
  }
}

TEST_P(EveryParser, ANumberPastDoublesRangeIsAnAnswerOrARefusal) {
  // nlohmann let its out_of_range escape the walk (found by json_parsers_fuzz).
  for (const char* text : {"[1e400]", "{\"q\": 1e30822222222222222222222222222222222}", "[-1e400]"}) {
    JsonText doc(text);
    try {
      find_parser(GetParam()).make(doc.size())->walk(doc);
    } catch (const ParseError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << GetParam() << " on " << text << ": not a ParseError: " << e.what();
    }
  }
}

TEST_P(EveryParser, RefusesARecordWhoseFieldHasTheWrongType) {
  // The answer is a sum over the fields; a field of another type read anyway is a wrong sum (RapidJSON's
  // getters only assert the type, compiled out in a release build) or undefined behaviour (nlohmann's
  // get<std::uint64_t>() of 1e300 or -1.5, which the sanitizer builds stop on).
  const RecordTask& task = record_shapes().front()->task;
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {task.id, "2.5"},    {task.id, "-1"},  {task.id, "1e300"},  {task.id, "-1.5"}, {task.id, "-1e300"},
      {task.id, "\"7\""}, {task.a, "\"x\""}, {task.b, "null"},    {task.text, "5"},  {task.text, "[]"}};
  for (const auto& [key, value] : wrong) {
    std::map<std::string, std::string> fields = {{task.id, "7"}, {task.a, "1"}, {task.b, "2"}, {task.text, "\"x\""}};
    fields[key] = value;
    std::string text = "[";
    for (const auto& [name, json] : fields) text += (text.size() > 1 ? ", \"" : "{\"") + name + "\": " + json;
    JsonText doc(text + "}]");
    auto parser = find_parser(GetParam()).make(doc.size());
    EXPECT_THROW(parser->sum_records(doc, task), std::exception) << GetParam() << " summed " << text << "}]";
  }
  JsonText good("[{\"" + task.id + "\": 7, \"" + task.a + "\": 1, \"" + task.b + "\": 2, \"" + task.text +
                "\": \"x\"}]");
  EXPECT_EQ(find_parser(GetParam()).make(good.size())->sum_records(good, task), (RecordAnswer{1, 7, 2.0, 1}))
      << GetParam();
}

TEST_P(EveryParser, RefusesInvalidUtf8WithAPrintableMessage) {
  JsonText doc("{\"a\":\"caf\xe9 \xff\"}");
  try {
    find_parser(GetParam()).make(doc.size())->walk(doc);
    ADD_FAILURE() << GetParam() << " accepted invalid UTF-8";
  } catch (const ParseError& e) {
    EXPECT_EQ(printable_message(e.what()), e.what());
  }
}

TEST(ParseErrors, MessagesAreMadePrintable) {
  EXPECT_EQ(printable_message("last read: '\"\xff' in caf\xc3\xa9\n"), "last read: '\"\\xFF' in caf\xc3\xa9\\x0A");
  EXPECT_EQ(printable_message("\xed\xa0\x80 \xf0\x9f\x93\x9a"), "\\xED\\xA0\\x80 \xf0\x9f\x93\x9a");  // a surrogate; an emoji
}

TEST_P(EveryParser, ScalarsAndNestingWalk) {
  JsonText doc(R"({"a":[1,2.5,-3e2,{"b\n":"\u00e7\ud83d\udcda"}],"c":null,"d":true,"e":""})");
  WalkAnswer w = find_parser(GetParam()).make(doc.size())->walk(doc);
  EXPECT_EQ(w.values, 10u);  // root, array, 3 numbers, inner object, its string, null, true, ""
  EXPECT_DOUBLE_EQ(w.number_sum, 1 + 2.5 - 300);
  EXPECT_EQ(w.string_bytes, 6u + 6u);  // keys a, "b\n", c, d, e (6 bytes); "ç📚" (2 + 4 bytes); ""
}

TEST_P(EveryParser, RefusesMalformedAndTruncatedDocuments) {
  Payload p = generate_payload(find_shape("orders"), 50, Layout::array);
  std::string whole(p.json.view());
  std::vector<std::string> bad = {
      whole.substr(0, whole.size() / 2),         // truncated mid-document
      whole.substr(0, whole.find("Paid") + 2),   // truncated inside a string
      R"([{"orderId":0,"quantity":tru}])",       // a misspelt literal
      R"([{"orderId":0,,"quantity":2}])",        // a doubled comma
      R"([1,2] 3)",                              // trailing content
      "",                                        // nothing
  };
  for (const auto& text : bad) {
    JsonText doc(text);
    auto parser = find_parser(GetParam()).make(std::max<std::size_t>(doc.size(), 1));
    try {
      parser->walk(doc);
      ADD_FAILURE() << GetParam() << " accepted: " << text.substr(0, 60);
    } catch (const ParseError& e) {
      EXPECT_LE(e.offset, doc.size()) << e.what();
      EXPECT_NE(std::string(e.what()).find(GetParam()), std::string::npos);
      bool always_located = GetParam() == "nlohmann" || GetParam() == "rapidjson" || GetParam() == "rapidjson-fast" || GetParam() == "boost-json";
      if (always_located) {
        EXPECT_TRUE(e.offset_known) << e.what();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Parsers, EveryParser, ::testing::ValuesIn(all_parsers()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (auto& c : name) if (c == '-') c = '_';
                           return name;
                         });

TEST(OnDemandSteppers, SameAnswerWhateverTheStep) {
  const ParserEntry& entry = find_parser("simdjson-ondemand");
  for (const Shape* record_shape : record_shapes()) {
    const Shape& shape = *record_shape;
    Payload array = generate_payload(shape, 2000, Layout::array);
    Payload ndjson = generate_payload(shape, 2000, Layout::ndjson);
    auto parser = entry.make(array.json.size());
    for (std::size_t step : {1u, 7u, 1000u, 5000u}) {
      auto stepper = parser->array_stepper(array.json, shape.task);
      std::size_t turns = 1;
      while (!stepper->step(step)) ++turns;
      EXPECT_EQ(stepper->answer(), array.expected) << shape.name << " step " << step;
      EXPECT_EQ(turns, std::max<std::size_t>(1, (2000 + step - 1) / step)) << "array, step " << step;
      auto lines = parser->ndjson_stepper(ndjson.json, shape.task);
      while (!lines->step(step)) {
      }
      EXPECT_EQ(lines->answer(), ndjson.expected) << shape.name << " ndjson step " << step;
    }
  }
}

TEST(OnDemandSteppers, LocatesAnErrorInTheMiddle) {
  Payload p = generate_payload(find_shape("orders"), 100, Layout::array);
  std::string text(p.json.view());
  std::size_t at = text.find("\"quantity\":2", text.size() / 2) + 11;
  text[at] = 'x';  // "quantity":x
  JsonText doc(text);
  auto parser = find_parser("simdjson-ondemand").make(doc.size());
  try {
    parser->sum_records(doc, find_shape("orders").task);
    FAIL() << "accepted a broken number";
  } catch (const ParseError& e) {
    ASSERT_TRUE(e.offset_known) << e.what();
    EXPECT_NEAR(static_cast<double>(e.offset), static_cast<double>(at), 40) << e.what();
  }
}
