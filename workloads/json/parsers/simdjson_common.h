// What both simdjson adapters share: turning an error code into a ParseError.
#pragma once

#include <simdjson.h>

#include "../parser.h"

namespace stallbench {

// simdjson's DOM parser and On-Demand's stage 1 report no position. An unclosed string is found
// when stage 1 reaches the end of the input still inside a string, so its offset is the end.
inline ParseError simdjson_parse_error(const std::string& parser, simdjson::error_code error, std::size_t size) {
  bool at_end = error == simdjson::UNCLOSED_STRING;
  return ParseError(parser, std::string(simdjson::error_message(error)) + " [" +
                                std::to_string(static_cast<int>(error)) + "]" + (at_end ? " (end of input)" : ""),
                    at_end ? size : 0, at_end);
}

inline std::string simdjson_version() { return SIMDJSON_STRINGIFY(SIMDJSON_VERSION); }

}  // namespace stallbench
