// The pattern catalogue (TOML, one [[pattern]] table per entry; see patterns.toml and
// docs/regex.md). The orchestrator validates a catalogue before a run, finds the attacks of entries
// that have none (recheck) and hands the bench the resolved catalogue; this loader reads what the
// bench needs and refuses what it cannot read.
//
// Attack inputs are bytes. In `prefix`, `pumps` and `suffix` text stands for its UTF-8 bytes and,
// in a catalogue of `format = 2`, three escapes are ours (after TOML's own): \xNN one byte,
// \u{H...} the UTF-8 bytes of a code point, \\ a backslash. A catalogue without `format` (1) was
// written before them: its backslashes are backslashes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine.h"

namespace stallbench::regex {

// One repeated part of an attack input: `before` once, then `pump` repeated.
struct Pump {
  std::string before;
  std::string pump;
};

struct Pattern {
  std::string name;
  std::string regex;
  std::optional<std::string> safe;  // a rewrite meant to accept the same language in linear time
  Flags flags;                      // JavaScript's i, m, s, u, for the regex and its rewrite
  std::string prefix, suffix;       // the attack input: prefix + each pump's part + suffix
  std::vector<Pump> pumps;          // `pump` is one Pump; empty: no attack (the orchestrator finds one)
  std::vector<std::int64_t> lengths, safe_lengths;
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
  // The catalogue shipped with stallbench (workloads/regex/patterns.toml).
  static std::string default_path();

  const std::vector<Pattern>& patterns() const { return patterns_; }
  std::vector<std::string> variant_names() const;  // NAME, then NAME.safe when it has one
  Variant variant(const std::string& name) const;  // throws std::invalid_argument

 private:
  std::vector<Pattern> patterns_;
};

// Our escapes (\xNN, \u{H...}, \\) decoded to bytes; throws std::invalid_argument at any other.
std::string decode_input(const std::string& text);

// The bytes of every attack input that are not pumped (prefix, suffix, each pump's `before`), and
// the bytes one more round of the pumps adds: attack inputs are fixed + k x period long.
struct PumpShape {
  std::int64_t fixed = 0;
  std::int64_t period = 0;
};
PumpShape pump_shape(const Pattern& pattern);

// prefix + every pump's `before` and the pump repeated k times + suffix, `length` bytes in all:
// length = fixed parts + k x (the pumps' bytes together); a pump is never cut. Throws
// std::invalid_argument for any other length, or when there is no attack.
std::string attack_input(const Pattern& pattern, std::int64_t length);

}  // namespace stallbench::regex
