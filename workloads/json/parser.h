// One adapter per JSON parser, all with this interface (simdjson's benchmark/ layout): the
// record task over a generated payload, the walk over any document, and, for a parser that can
// stop and resume, steppers that process a few records per loop turn. An adapter is compiled only
// when its library was found; parsers() lists the ones that were. Beside each adapter, a reference
// walk uses the same library the way its own documentation and benchmarks do: timed against the
// adapter, it measures what the adapter costs (references/).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "answer.h"
#include "json_text.h"
#include "shapes.h"

namespace stallbench {

// Every adapter refuses a document nested deeper than this with a ParseError: simdjson's own
// default limit; Boost.JSON's is raised to it (from 32); nlohmann and RapidJSON have none, so their
// adapters enforce it (a recursive walk or parse of 100,000 levels would overflow the stack).
inline constexpr std::size_t kMaxDepth = 1024;

// A document the parser refused, with where it stopped (bytes from the start) when it says.
struct ParseError : std::runtime_error {
  ParseError(const std::string& parser, const std::string& message, std::size_t offset, bool offset_known = true);
  std::size_t offset;
  bool offset_known;
};

// `text` with every byte that is not printable ASCII or well-formed UTF-8 written as \xNN.
std::string printable_message(const std::string& text);

// Records processed a few at a time, across loop turns.
class RecordStepper {
 public:
  virtual ~RecordStepper() = default;
  // Processes up to `records` more; true when the document is exhausted. Throws ParseError.
  virtual bool step(std::size_t records) = 0;
  virtual const RecordAnswer& answer() const = 0;
};

class JsonParser {
 public:
  virtual ~JsonParser() = default;
  // The record task over an array of records. Throws ParseError.
  virtual RecordAnswer sum_records(const JsonText& json, const RecordTask& task) = 0;
  // Every value of any document. Throws ParseError.
  virtual WalkAnswer walk(const JsonText& json) = 0;
  // An array of records, a few per step (nullptr when the parser cannot resume).
  virtual std::unique_ptr<RecordStepper> array_stepper(const JsonText&, const RecordTask&) { return nullptr; }
  // NDJSON records, a few per step (nullptr when the parser cannot).
  virtual std::unique_ptr<RecordStepper> ndjson_stepper(const JsonText&, const RecordTask&) { return nullptr; }
};

// The library used as its own documentation and benchmarks use it, walking the same values as the
// adapter's walk (same WalkAnswer). Only given documents the adapter accepted; may throw anything.
class ReferenceWalk {
 public:
  virtual ~ReferenceWalk() = default;
  virtual WalkAnswer walk(const JsonText& json) = 0;
};

// How a parser turns number text into doubles: `exact` is correctly rounded (the nearest double);
// `fast` takes a shortcut that can be off by an ulp or more for long decimals. Throughput is
// comparable only between parsers in the same mode.
enum class NumberMode { exact, fast };
const std::vector<std::string>& number_mode_names();  // "exact", "fast"
const std::string& number_mode_name(NumberMode mode);

struct ParserEntry {
  std::string name;     // the `parser` parameter's value
  std::string library;  // for meta.json's versions
  std::string version;
  bool steps;           // offers array_stepper / ndjson_stepper
  // A fresh parser; `max_bytes` is the largest document it will be given (simdjson sizes its
  // buffers from it at the first parse).
  std::function<std::unique_ptr<JsonParser>(std::size_t max_bytes)> make;
  NumberMode numbers = NumberMode::exact;
  // A fresh reference walk, sized like `make`.
  std::function<std::unique_ptr<ReferenceWalk>(std::size_t max_bytes)> reference;
};

// Every parser compiled in, in a fixed order.
const std::vector<ParserEntry>& parsers();
// Throws std::invalid_argument naming the parsers compiled in.
const ParserEntry& find_parser(const std::string& name);

// The ParserEntry of each adapter, defined in its own file.
ParserEntry simdjson_dom_parser();
ParserEntry simdjson_ondemand_parser();
ParserEntry nlohmann_parser();
ParserEntry rapidjson_parser();
ParserEntry rapidjson_fast_parser();
ParserEntry boost_json_parser();

// The reference walk of each library (references/), in the number mode of the entry it serves.
std::unique_ptr<ReferenceWalk> simdjson_dom_reference(std::size_t max_bytes);
std::unique_ptr<ReferenceWalk> simdjson_ondemand_reference(std::size_t max_bytes);
std::unique_ptr<ReferenceWalk> nlohmann_reference();
std::unique_ptr<ReferenceWalk> rapidjson_reference(NumberMode numbers);
std::unique_ptr<ReferenceWalk> boost_json_reference();

}  // namespace stallbench
