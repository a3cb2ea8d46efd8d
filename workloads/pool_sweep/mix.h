// A mix: which job classes arrive at the pool, how often, and how big each job is. Written
// CLASS:RATE[:SIZE],... on the command line, or by name for the named mixes in mixes.json. Inside
// a benchmark parameter, where ',' and ':' separate other things, the same mix is written with
// '+' and '@' (pbkdf2@20@100000+read@100); both spellings are accepted everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stallbench {

struct MixEntry {
  std::string job_class;
  double rate_per_s = 0;   // open loop: Poisson arrivals at this rate, independent of completions
  int in_flight = 0;       // or closed: this many jobs always in flight (RATE written xN)
  std::int64_t size = 0;   // the class's SIZE, its default when not written

  bool closed() const { return in_flight > 0; }
};

struct Mix {
  std::string name;  // the named mix, or the mix as written
  std::vector<MixEntry> entries;
};

struct NamedMix {
  std::string name, mix, analysis;
};
const std::vector<NamedMix>& named_mixes();

// Throws std::invalid_argument with one line naming what is wrong and what is valid.
Mix parse_mix(const std::string& text);

// Empty when `text` is a valid mix; otherwise the line parse_mix would throw.
std::string mix_problem(const std::string& text);

// The mix in the command line's spelling (CLASS:RATE[:SIZE],...).
std::string command_line_spelling(const std::string& text);

}  // namespace stallbench
