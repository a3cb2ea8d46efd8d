// One adapter per JSON parser, all with this interface (simdjson's benchmark/ layout): the
// record task over a generated payload, the walk over any document, and, for a parser that can
// stop and resume, steppers that process a few records per loop turn. An adapter is compiled only
// when its library was found; parsers() lists the ones that were.
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

// A document the parser refused, with where it stopped (bytes from the start) when it says.
struct ParseError : std::runtime_error {
  ParseError(const std::string& parser, const std::string& message, std::size_t offset, bool offset_known = true);
  std::size_t offset;
  bool offset_known;
};

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

struct ParserEntry {
  std::string name;     // the `parser` parameter's value
  std::string library;  // for meta.json's versions
  std::string version;
  bool steps;           // offers array_stepper / ndjson_stepper
  // A fresh parser; `max_bytes` is the largest document it will be given (simdjson sizes its
  // buffers from it at the first parse).
  std::function<std::unique_ptr<JsonParser>(std::size_t max_bytes)> make;
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
ParserEntry boost_json_parser();

}  // namespace stallbench
