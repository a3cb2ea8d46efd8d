// The registry: an adapter is listed when CMake found its library and compiled its file.
#include "parser.h"

namespace stallbench {

ParseError::ParseError(const std::string& parser, const std::string& message, std::size_t offset, bool offset_known)
    : std::runtime_error(parser + ": " + message +
                         (offset_known ? " at byte " + std::to_string(offset) : " (the parser gives no byte offset)")),
      offset(offset),
      offset_known(offset_known) {}

const std::vector<ParserEntry>& parsers() {
  static const std::vector<ParserEntry> all = [] {
    std::vector<ParserEntry> found;
#ifdef STALLBENCH_HAVE_SIMDJSON
    found.push_back(simdjson_dom_parser());
    found.push_back(simdjson_ondemand_parser());
#endif
#ifdef STALLBENCH_HAVE_NLOHMANN_JSON
    found.push_back(nlohmann_parser());
#endif
#ifdef STALLBENCH_HAVE_RAPIDJSON
    found.push_back(rapidjson_parser());
#endif
#ifdef STALLBENCH_HAVE_BOOST_JSON
    found.push_back(boost_json_parser());
#endif
    return found;
  }();
  return all;
}

const ParserEntry& find_parser(const std::string& name) {
  std::string known;
  for (const auto& p : parsers()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw std::invalid_argument("parser '" + name + "' is not compiled in (available: " + known + ")");
}

}  // namespace stallbench
