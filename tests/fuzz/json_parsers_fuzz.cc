// Every JSON parser adapter compiled in (workloads/json/parser.h), through the adapter interface
// the bench uses: the walk over any document, the record task, and the steppers of the parsers
// that offer them. The walk reads users' documents (json --input): it answers or throws ParseError,
// which becomes a `rejected` row with the parser's message. The record task and the steppers read
// the generated payloads only: there any std::exception is acceptable (the harness makes it an
// `error` row, carried back from a pool or worker thread too). A crash, a sanitizer report, a
// hang or a balloon (run-fuzzer's limits) is a bug everywhere.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "workloads/json/parser.h"
#include "workloads/json/shapes.h"

namespace {

void drain(std::unique_ptr<stallbench::RecordStepper> stepper) {
  if (stepper)
    while (!stepper->step(3)) {
    }
}

}  // namespace

// run-fuzzer's -max_len. The parsers are made once and reused, as the bench reuses them.
constexpr std::size_t kMaxDocument = 65536;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto parsers = [] {
    std::vector<std::unique_ptr<stallbench::JsonParser>> made;
    for (const auto& entry : stallbench::parsers()) made.push_back(entry.make(kMaxDocument));
    return made;
  }();
  if (size > kMaxDocument) return 0;
  const stallbench::JsonText json(std::string(reinterpret_cast<const char*>(data), size));
  const stallbench::RecordTask& task = stallbench::shapes().front().task;
  for (const auto& parser : parsers) {
    try {
      parser->walk(json);
    } catch (const stallbench::ParseError&) {
    }
    auto attempt = [](auto&& call) {
      try {
        call();
      } catch (const std::exception&) {
      }
    };
    attempt([&] { parser->sum_records(json, task); });
    attempt([&] { drain(parser->array_stepper(json, task)); });
    attempt([&] { drain(parser->ndjson_stepper(json, task)); });
  }
  return 0;
}
