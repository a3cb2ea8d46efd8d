// One small interface in front of every regex engine: compile a pattern (search or full match),
// ask whether an input matches, and learn what went wrong as what it is.
//
// Failures carry the status the results CSV uses:
//   rejected  the engine refused the pattern at compile time (syntax it does not have, too large)
//   guarded   the engine's own limit fired while matching (Boost's error_complexity, PCRE2's
//             match limit, V8's backtrack stack); the engine's message is the detail
// Anything else an adapter throws is an `error`. A crash (std::regex overflowing the stack) cannot
// be thrown: the cell's process dies and the orchestrator records it as `crashed`.
//
// Every adapter gives the same meaning to a pattern: bytes (no UTF-8 decoding), `.` does not match
// a newline, `$` matches at the end of the input only, no multiline, case-sensitive, unless Flags
// say otherwise (JavaScript's i, s, m, u); an engine that has no way to honour a flag refuses the
// pattern (`rejected`, naming the flag). Exceptions the engines do not let us remove (the adapters
// never rewrite a pattern): `$` also matches before a final newline in Hyperscan, Python and Java;
// Ruby's ^ and $ always match at line breaks; an input that shows it shows it as that engine's
// wrong answers (the orchestrator checks every engine's answers against a reference). The
// engines' full differences are in docs/regex.md.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stallbench::regex {

enum class Anchoring {
  search,  // the pattern may match anywhere in the input (JavaScript's test(), regex_search)
  full,    // the pattern must match the whole input (regex_match, RE2::FullMatch)
};

// JavaScript's flags, the common ground of every engine's options.
struct Flags {
  bool ignore_case = false;  // i
  bool dot_all = false;      // s: `.` matches a newline too
  bool multiline = false;    // m: ^ and $ at line boundaries too
  bool unicode = false;      // u: pattern and input are UTF-8, matched by code point
  bool global = false;       // g: every match, as a global replace finds them (every_match.h)
  bool sticky = false;       // y: each match starts where the last ended (the first at the start)
  // "ims" -> Flags; throws std::invalid_argument naming a letter that is not one of i, m, s, u, g, y.
  static Flags parse(std::string_view letters);
  std::string letters() const;  // back to "imsugy" order
};

struct Options {
  Anchoring anchoring = Anchoring::search;
  Flags flags;
  std::string node;  // the Node binary, for the engines that run in each Node line (node, node-linear)
};

struct EngineFailure : std::runtime_error {
  EngineFailure(std::string status, const std::string& message)
      : std::runtime_error(message), status(std::move(status)) {}
  std::string status;  // "rejected" or "guarded"
};

// What a batch of matches found and how long it took.
struct Batch {
  std::size_t matched = 0;  // how many (input, repeat) pairs matched
  double ms = 0;            // wall time of the whole batch, measured where the engine runs
};

// How one match is timed when a single time must stand for it on a busy machine: a first run (which
// also warms the engine up), then, when that was faster than `below_ms`, the fastest of `rounds`
// more (one more from `one_round_from_ms`), each repeated until it takes `floor_ms` (load only ever
// adds time).
struct Rounds {
  int rounds = 3;
  double floor_ms = 0.2;
  double below_ms = 20;
  double one_round_from_ms = 5;
  // How many more rounds a match whose first run took `first_ms` gets.
  int after(double first_ms) const { return first_ms >= below_ms ? 0 : first_ms >= one_round_from_ms ? 1 : rounds; }
};

// A compiled pattern. Not thread-safe: one per thread.
class Regex {
 public:
  virtual ~Regex() = default;
  // True when the pattern matches `input`; throws EngineFailure("guarded", ...) when a limit fires.
  virtual bool matches(std::string_view input) = 0;
  // Every input `repeat` times, timed around the loop. Engines in another process (V8 through
  // node) time the loop there, so the pipe between the processes is not measured.
  virtual Batch run_batch(std::span<const std::string_view> inputs, int repeat);
  // One character per input: 1 it matches, 0 it does not, g the engine's guard fired, e any other
  // failure. Engines in another process answer a whole set in one request (a sample check is
  // hundreds of thousands of inputs: one pipe round trip each took minutes).
  virtual std::string answers(std::span<const std::string_view> inputs);
  // One match's time by `rounds` (Batch.ms is per match, matched is the first run's): engines in
  // another process run the whole protocol there, one request instead of one per round.
  virtual Batch fastest(std::string_view input, const Rounds& rounds);
  // Why the engine runs this pattern with another algorithm than the one it is named for (V8's
  // node-linear on a pattern its linear engine cannot take: plain backtracking); empty when not.
  virtual std::string fallback() const { return {}; }
};

// Compiles `pattern` with `engine` (one of engine_names(), engines.h); throws EngineFailure("rejected", ...),
// also for a flag the engine cannot honour.
std::unique_ptr<Regex> compile(std::string_view engine, std::string_view pattern, const Options& options);
inline std::unique_ptr<Regex> compile(std::string_view engine, std::string_view pattern, Anchoring anchoring) {
  return compile(engine, pattern, Options{.anchoring = anchoring});
}

// What an engine says when it cannot honour `flag` (a letter of Flags).
[[noreturn]] void refuse_flag(std::string_view engine, char flag, std::string_view why);

}  // namespace stallbench::regex
