// The pattern catalogue (TOML, one [[pattern]] table per entry; see patterns.toml and
// docs/regex.md). The orchestrator validates a catalogue before a run and reports bad entries;
// this loader reads what the bench needs and refuses what it cannot read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stallbench::regex {

struct Pattern {
  std::string name;
  std::string regex;
  std::optional<std::string> safe;  // a rewrite meant to accept the same language in linear time
  std::string prefix, pump, suffix;  // the attack input: prefix + pump cycled + suffix
  std::vector<std::int64_t> lengths;
  std::string expect;  // linear, polynomial, exponential, or empty
  std::string source;
  std::string analysis;
};

// What a cell measures: one pattern's regex, or its safe rewrite ("NAME.safe").
struct Variant {
  std::string name;  // NAME or NAME.safe
  std::string regex;
  const Pattern* pattern;
};

class Catalogue {
 public:
  // Throws std::runtime_error naming the file and the entry on anything it cannot read.
  static Catalogue load(const std::string& path);
  // STALLBENCH_REGEX_PATTERNS when set, else the catalogue shipped with stallbench.
  static std::string default_path();

  const std::vector<Pattern>& patterns() const { return patterns_; }
  std::vector<std::string> variant_names() const;  // NAME, then NAME.safe when it has one
  Variant variant(const std::string& name) const;  // throws std::invalid_argument

 private:
  std::vector<Pattern> patterns_;
};

// prefix + pump repeated (and cut) to fill + suffix, `length` characters in all.
// Throws std::invalid_argument when length < prefix + suffix or the pump is empty.
std::string attack_input(const Pattern& pattern, std::int64_t length);

}  // namespace stallbench::regex
