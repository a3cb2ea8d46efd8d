// RE2: automata only, linear in the input. It has no backtracking to guard; its protection is at
// compile time, where it refuses what it cannot run in linear time (backreferences, lookaround)
// and programs larger than its memory budget. Those are `rejected`.
#include <re2/re2.h>

#include "adapters.h"
#include "every_match.h"

#ifndef STALLBENCH_RE2_VERSION
#define STALLBENCH_RE2_VERSION "unknown"
#endif

namespace stallbench::regex {
namespace {

// Bytes (Latin-1) as every other adapter, or UTF-8 code points with the u flag.
RE2::Options re2_options(const Flags& flags) {
  RE2::Options o;
  o.set_encoding(flags.unicode ? RE2::Options::EncodingUTF8 : RE2::Options::EncodingLatin1);
  o.set_case_sensitive(!flags.ignore_case);
  o.set_dot_nl(flags.dot_all);
  o.set_log_errors(false);  // the error is reported as the cell's detail instead
  return o;
}

// RE2's options have no multiline outside POSIX syntax; its (?m) flag group is the way.
std::string with_multiline(std::string_view pattern, const Flags& flags) {
  return (flags.multiline ? "(?m)" : "") + std::string(pattern);
}

class Re2Regex : public Regex {
 public:
  Re2Regex(std::string_view pattern, const Options& options)
      : regex_(with_multiline(pattern, options.flags), re2_options(options.flags)),
        anchor_(options.anchoring == Anchoring::full ? RE2::ANCHOR_BOTH
                : options.flags.sticky                ? RE2::ANCHOR_START
                                                      : RE2::UNANCHORED),
        flags_(options.flags) {
    if (!regex_.ok()) throw EngineFailure("rejected", regex_.error());
  }

  bool matches(std::string_view input) override {
    re2::StringPiece text(input.data(), input.size());
    // No submatches asked for, one search: RE2 answers with its DFA alone.
    if (!flags_.global) return regex_.Match(text, 0, input.size(), anchor_, nullptr, 0);
    return every_match(input, flags_, [&](std::size_t from) -> Found {
      re2::StringPiece found;
      if (!regex_.Match(text, from, input.size(), anchor_, &found, 1)) return std::nullopt;
      auto start = static_cast<std::size_t>(found.data() - input.data());
      return std::pair<std::size_t, std::size_t>(start, start + found.size());
    });
  }

 private:
  RE2 regex_;
  RE2::Anchor anchor_;
  Flags flags_;
};

}  // namespace

std::unique_ptr<Regex> compile_re2(std::string_view pattern, const Options& options) {
  return std::make_unique<Re2Regex>(pattern, options);
}

std::string re2_version() { return STALLBENCH_RE2_VERSION; }

}  // namespace stallbench::regex
