// The registry: an adapter is listed when CMake found its library and compiled its file.
#include "parser.h"

#include <cstdio>

namespace stallbench {

namespace {

// Length of the well-formed UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs, no surrogates).
std::size_t utf8_sequence(const std::string& s, std::size_t i) {
  auto byte = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  unsigned c = byte(i);
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

// A parser's message may quote the bytes it choked on (nlohmann does: "last read: '\"\xff'"): any
// byte that is not printable ASCII or part of well-formed UTF-8 is written as \xNN, so the message
// stays one line of valid UTF-8 wherever it goes (Google Benchmark's JSON, the CSV, the report).
std::string printable_message(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += text[i++];
    } else if (std::size_t n = c >= 0x80 ? utf8_sequence(text, i) : 0; n > 0) {
      out.append(text, i, n);
      i += n;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
      ++i;
    }
  }
  return out;
}

const std::vector<std::string>& number_mode_names() {
  static const std::vector<std::string> names = {"exact", "fast"};
  return names;
}

const std::string& number_mode_name(NumberMode mode) { return number_mode_names()[static_cast<std::size_t>(mode)]; }

ParseError::ParseError(const std::string& parser, const std::string& message, std::size_t offset, bool offset_known)
    : std::runtime_error(parser + ": " + printable_message(message) +
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
    found.push_back(rapidjson_fast_parser());
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
