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

Pattern read_pattern(const toml::table& entry, const std::string& where) {
  Pattern p;
  p.name = text_field(entry, "name", true, where);
  std::string named = where + " '" + p.name + "'";
  p.regex = text_field(entry, "regex", true, named);
  if (entry.contains("safe")) p.safe = text_field(entry, "safe", true, named);
  p.prefix = text_field(entry, "prefix", false, named);
  p.pump = text_field(entry, "pump", true, named);
  p.suffix = text_field(entry, "suffix", false, named);
  p.expect = text_field(entry, "expect", false, named);
  p.source = text_field(entry, "source", true, named);
  p.analysis = text_field(entry, "analysis", false, named);
  if (p.pump.empty()) throw std::runtime_error(named + ": 'pump' is empty");
  // The orchestrator's bound (scripts/stallbench_lib/redos/patterns.py, MAX_RECIPE_TEXT).
  constexpr std::size_t kMaxRecipeText = 1024;
  for (const auto* text : {&p.prefix, &p.pump, &p.suffix})
    if (text->size() > kMaxRecipeText)
      throw std::runtime_error(named + ": prefix, pump and suffix hold at most " + std::to_string(kMaxRecipeText) +
                               " characters each");
  if (const toml::array* lengths = entry["lengths"].as_array()) {
    for (const auto& item : *lengths) {
      auto n = item.value<std::int64_t>();
      if (!n || *n < 1) throw std::runtime_error(named + ": 'lengths' must hold positive integers");
      p.lengths.push_back(*n);
    }
  }
  return p;
}

}  // namespace

Catalogue Catalogue::load(const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(path + ": invalid TOML: " + std::string(e.description()));
  }
  const toml::array* entries = doc["pattern"].as_array();
  if (entries == nullptr || entries->empty()) throw std::runtime_error(path + ": no [[pattern]] entries");
  Catalogue catalogue;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table* entry = (*entries)[i].as_table();
    std::string where = path + ": pattern " + std::to_string(i + 1);
    if (entry == nullptr) throw std::runtime_error(where + " is not a table");
    catalogue.patterns_.push_back(read_pattern(*entry, where));
  }
  return catalogue;
}

std::string Catalogue::default_path() {
  const char* given = std::getenv("STALLBENCH_REGEX_PATTERNS");
  return given != nullptr && *given != '\0' ? given : STALLBENCH_REGEX_CATALOGUE;
}

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

std::string attack_input(const Pattern& pattern, std::int64_t length) {
  auto fixed = static_cast<std::int64_t>(pattern.prefix.size() + pattern.suffix.size());
  if (pattern.pump.empty()) throw std::invalid_argument("pattern '" + pattern.name + "' has an empty pump");
  if (length < fixed)
    throw std::invalid_argument("length " + std::to_string(length) + " is shorter than the prefix and suffix of '" +
                                pattern.name + "' (" + std::to_string(fixed) + " characters)");
  std::string input = pattern.prefix;
  input.reserve(static_cast<std::size_t>(length));
  for (std::int64_t i = 0; i < length - fixed; ++i) input.push_back(pattern.pump[i % pattern.pump.size()]);
  return input + pattern.suffix;
}

}  // namespace stallbench::regex
