// What both simdjson adapters share: turning an error code into a ParseError.
#pragma once

#include <simdjson.h>

#include "../parser.h"

namespace stallbench {

// Both simdjson parsers allocate for simdjson's default depth (their constructors take none).
static_assert(simdjson::DEFAULT_MAX_DEPTH == kMaxDepth, "kMaxDepth is simdjson's own limit");

// simdjson's DOM parser and On-Demand's stage 1 report no position. An unclosed string is found
// when stage 1 reaches the end of the input still inside a string, so its offset is the end.
inline ParseError simdjson_parse_error(const std::string& parser, simdjson::error_code error, std::size_t size) {
  bool at_end = error == simdjson::UNCLOSED_STRING;
  return ParseError(parser, std::string(simdjson::error_message(error)) + " [" +
                                std::to_string(static_cast<int>(error)) + "]" + (at_end ? " (end of input)" : ""),
                    at_end ? size : 0, at_end);
}

// The version, and the kernels stage 1 picked at run time for this CPU (icelake, haswell, ...).
inline std::string simdjson_version() {
  return std::string(SIMDJSON_STRINGIFY(SIMDJSON_VERSION)) + " (" + simdjson::get_active_implementation()->name() +
         " kernels)";
}

}  // namespace stallbench
