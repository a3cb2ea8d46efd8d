// Every JSON parser adapter compiled in (workloads/json/parser.h), through the adapter interface
// the bench uses: the walk over any document, the record task, and the steppers of the parsers
// that offer them. Each either answers or throws ParseError; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/json/parser.h"
#include "workloads/json/shapes.h"

namespace {

void drain(std::unique_ptr<stallbench::RecordStepper> stepper) {
  if (stepper)
    while (!stepper->step(3)) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const stallbench::JsonText json(std::string(reinterpret_cast<const char*>(data), size));
  const stallbench::RecordTask& task = stallbench::shapes().front().task;
  for (const auto& entry : stallbench::parsers()) {
    auto parser = entry.make(json.size());
    auto attempt = [](auto&& call) {
      try {
        call();
      } catch (const stallbench::ParseError&) {
      }
    };
    attempt([&] { parser->walk(json); });
    attempt([&] { parser->sum_records(json, task); });
    attempt([&] { drain(parser->array_stepper(json, task)); });
    attempt([&] { drain(parser->ndjson_stepper(json, task)); });
  }
  return 0;
}
