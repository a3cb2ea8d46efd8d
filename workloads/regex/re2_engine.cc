// RE2: automata only, linear in the input. It has no backtracking to guard; its protection is at
// compile time, where it refuses what it cannot run in linear time (backreferences, lookaround)
// and programs larger than its memory budget. Those are `rejected`.
#include <re2/re2.h>

#include "adapters.h"

#ifndef STALLBENCH_RE2_VERSION
#define STALLBENCH_RE2_VERSION "unknown"
#endif

namespace stallbench::regex {
namespace {

RE2::Options options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);  // bytes, as every other adapter
  o.set_log_errors(false);                       // the error is reported as the cell's detail instead
  return o;
}

class Re2Regex : public Regex {
 public:
  Re2Regex(std::string_view pattern, Anchoring anchoring)
      : regex_(re2::StringPiece(pattern.data(), pattern.size()), options()),
        anchor_(anchoring == Anchoring::full ? RE2::ANCHOR_BOTH : RE2::UNANCHORED) {
    if (!regex_.ok()) throw EngineFailure("rejected", regex_.error());
  }

  bool matches(std::string_view input) override {
    // No submatches asked for: RE2 answers with its DFA alone.
    return regex_.Match(re2::StringPiece(input.data(), input.size()), 0, input.size(), anchor_, nullptr, 0);
  }

 private:
  RE2 regex_;
  RE2::Anchor anchor_;
};

}  // namespace

std::unique_ptr<Regex> compile_re2(std::string_view pattern, Anchoring anchoring) {
  return std::make_unique<Re2Regex>(pattern, anchoring);
}

std::string re2_version() { return STALLBENCH_RE2_VERSION; }

}  // namespace stallbench::regex
