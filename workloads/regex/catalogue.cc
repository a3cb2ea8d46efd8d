#include "catalogue.h"

#include <cstdlib>
#include <stdexcept>
#include <toml++/toml.h>

#ifndef STALLBENCH_REGEX_CATALOGUE
#define STALLBENCH_REGEX_CATALOGUE "patterns.toml"
#endif

namespace stallbench::regex {
namespace {

const std::string kSafeSuffix = ".safe";
constexpr std::int64_t kFormat = 2;  // the catalogue format this reads (scripts/stallbench_lib/families/regex/patterns.py)

std::string text_field(const toml::table& entry, const char* key, bool required, const std::string& where) {
  const toml::node* node = entry.get(key);
  if (node == nullptr) {
    if (required) throw std::runtime_error(where + ": missing field '" + key + "'");
    return {};
  }
  auto value = node->value<std::string>();
  if (!value) throw std::runtime_error(where + ": field '" + key + "' must be a string");
  return *value;
}

// Format 1 (a catalogue without `format`, written before the escapes arrived) reads the text as it
// is, a backslash being a backslash; format 2 reads the escapes.
std::string input_field(const toml::table& entry, const char* key, const std::string& where, int format) {
  if (format == 1) return text_field(entry, key, false, where);
  try {
    return decode_input(text_field(entry, key, false, where));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(where + ": '" + key + "': " + e.what());
  }
}

std::vector<std::int64_t> lengths_field(const toml::table& entry, const char* key, const std::string& where) {
  std::vector<std::int64_t> lengths;
  if (const toml::array* given = entry[key].as_array()) {
    for (const auto& item : *given) {
      auto n = item.value_exact<std::int64_t>();  // value<>() converts a float, 1e300 included (undefined)
      if (!n || *n < 1) throw std::runtime_error(where + ": '" + key + "' must hold positive integers");
      lengths.push_back(*n);
    }
  }
  return lengths;
}

std::vector<Pump> pumps_field(const toml::table& entry, const std::string& where, int format) {
  std::vector<Pump> pumps;
  if (entry.contains("pump")) pumps.push_back({"", input_field(entry, "pump", where, format)});
  if (const toml::array* given = entry["pumps"].as_array()) {
    for (const auto& item : *given) {
      const toml::table* part = item.as_table();
      if (part == nullptr) throw std::runtime_error(where + ": 'pumps' must hold tables {before, pump}");
      pumps.push_back({input_field(*part, "before", where, format), input_field(*part, "pump", where, format)});
    }
  }
  for (const auto& p : pumps)
    if (p.pump.empty()) throw std::runtime_error(where + ": 'pump' is empty");
  return pumps;
}

Pattern read_pattern(const toml::table& entry, const std::string& where, int format) {
  Pattern p;
  p.name = text_field(entry, "name", true, where);
  std::string named = where + " '" + p.name + "'";
  p.regex = text_field(entry, "regex", true, named);
  if (entry.contains("safe")) p.safe = text_field(entry, "safe", true, named);
  try {
    p.flags = Flags::parse(text_field(entry, "flags", false, named));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(named + ": " + e.what());
  }
  p.prefix = input_field(entry, "prefix", named, format);
  p.pumps = pumps_field(entry, named, format);
  p.suffix = input_field(entry, "suffix", named, format);
  p.expect = text_field(entry, "expect", false, named);
  p.source = text_field(entry, "source", true, named);
  p.analysis = text_field(entry, "analysis", false, named);
  p.lengths = lengths_field(entry, "lengths", named);
  p.safe_lengths = lengths_field(entry, "safe_lengths", named);
  // The orchestrator's bounds (scripts/stallbench_lib/families/regex/patterns.py, MAX_FIXED and MAX_PUMP):
  // every sample input repeats the fixed parts, and a 2 MB prefix took 1 GB there.
  constexpr std::size_t kMaxFixed = 4096, kMaxPump = 4096;
  std::size_t fixed = p.prefix.size() + p.suffix.size();
  for (const auto& pump : p.pumps) {
    fixed += pump.before.size();
    if (pump.pump.size() > kMaxPump)
      throw std::runtime_error(named + ": a pump holds at most " + std::to_string(kMaxPump) + " bytes");
  }
  if (fixed > kMaxFixed)
    throw std::runtime_error(named + ": prefix, suffix and befores hold at most " + std::to_string(kMaxFixed) +
                             " bytes");
  return p;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

std::string decode_input(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out.push_back(text[i]);
      continue;
    }
    char kind = i + 1 < text.size() ? text[i + 1] : '\0';
    if (kind == '\\') {
      out.push_back('\\');
      ++i;
    } else if (kind == 'x' && i + 3 < text.size() && hex_digit(text[i + 2]) >= 0 && hex_digit(text[i + 3]) >= 0) {
      out.push_back(static_cast<char>(hex_digit(text[i + 2]) * 16 + hex_digit(text[i + 3])));
      i += 3;
    } else if (kind == 'u' && i + 2 < text.size() && text[i + 2] == '{') {
      std::size_t close = text.find('}', i + 3);
      std::uint32_t cp = 0;
      bool valid = close != std::string::npos && close > i + 3 && close - (i + 3) <= 6;
      for (std::size_t k = i + 3; valid && k < close; ++k) {
        valid = hex_digit(text[k]) >= 0;
        cp = cp * 16 + static_cast<std::uint32_t>(valid ? hex_digit(text[k]) : 0);
      }
      if (!valid || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        throw std::invalid_argument("bad \\u{...} escape at character " + std::to_string(i + 1));
      append_utf8(out, cp);
      i = close;
    } else {
      throw std::invalid_argument("unknown escape at character " + std::to_string(i + 1) +
                                  " (valid: \\xNN, \\u{H...}, \\\\)");
    }
  }
  return out;
}

Catalogue Catalogue::load(const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(path + ": invalid TOML: " + std::string(e.description()));
  }
  auto format = doc["format"].value_exact<std::int64_t>();
  if (doc.contains("format") && (!format || *format < 1 || *format > kFormat))
    throw std::runtime_error(path + ": format is not one this stallbench reads (valid: 1, " + std::to_string(kFormat) +
                             "; none is 1)");
  const toml::array* entries = doc["pattern"].as_array();
  if (entries == nullptr || entries->empty()) throw std::runtime_error(path + ": no [[pattern]] entries");
  Catalogue catalogue;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table* entry = (*entries)[i].as_table();
    std::string where = path + ": pattern " + std::to_string(i + 1);
    if (entry == nullptr) throw std::runtime_error(where + " is not a table");
    catalogue.patterns_.push_back(read_pattern(*entry, where, static_cast<int>(format.value_or(1))));
  }
  return catalogue;
}

std::string Catalogue::default_path() { return STALLBENCH_REGEX_CATALOGUE; }

std::vector<std::string> Catalogue::variant_names() const {
  std::vector<std::string> names;
  for (const auto& p : patterns_) {
    names.push_back(p.name);
    if (p.safe) names.push_back(p.name + kSafeSuffix);
  }
  return names;
}

Variant Catalogue::variant(const std::string& name) const {
  for (const auto& p : patterns_) {
    if (p.name == name) return {name, p.regex, &p};
    if (p.safe && p.name + kSafeSuffix == name) return {name, *p.safe, &p};
  }
  throw std::invalid_argument("no pattern '" + name + "' in the catalogue");
}

PumpShape pump_shape(const Pattern& pattern) {
  PumpShape shape{.fixed = static_cast<std::int64_t>(pattern.prefix.size() + pattern.suffix.size())};
  for (const auto& p : pattern.pumps) {
    shape.fixed += static_cast<std::int64_t>(p.before.size());
    shape.period += static_cast<std::int64_t>(p.pump.size());
  }
  return shape;
}

std::string attack_input(const Pattern& pattern, std::int64_t length) {
  if (pattern.pumps.empty())
    throw std::invalid_argument("pattern '" + pattern.name + "' has no attack (no pump): stallbench regex finds one");
  auto [fixed, period] = pump_shape(pattern);
  // Whole pumps only: a pump cut to fill a length leaves a piece that, with the suffix, can let the
  // input match early (a 3-byte pump cut to 1 byte made marked's quoted-string regex read linear).
  if (length < fixed || (period == 0 ? length != fixed : (length - fixed) % period != 0))
    throw std::invalid_argument("length " + std::to_string(length) + " is not made of whole pumps for '" +
                                pattern.name + "' (valid: " + std::to_string(fixed) + " + k x " +
                                std::to_string(period) + ")");
  std::int64_t repeats = period == 0 ? 0 : (length - fixed) / period;
  std::string input = pattern.prefix;
  input.reserve(static_cast<std::size_t>(length));
  for (const Pump& p : pattern.pumps) {
    input += p.before;
    for (std::int64_t k = 0; k < repeats; ++k) input += p.pump;
  }
  return input + pattern.suffix;
}

}  // namespace stallbench::regex
