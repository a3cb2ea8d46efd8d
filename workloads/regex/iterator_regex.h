// std::regex and Boost.Regex have one API (Boost's is the ancestor of std's): one adapter for
// both, parameterised by a small traits struct naming the library's types, syntax flags and how it
// reports a guard.
#pragma once

#include <string>
#include <string_view>

#include "engine.h"
#include "every_match.h"

namespace stallbench::regex {

// Library provides: `regex`, `error`, `syntax(flags)` (throwing EngineFailure for a flag it cannot
// honour), `match(first, last, re)`, `find(begin, from, end, re, sticky)` (the match searched for
// from `from`, anchored there when sticky, its start and end as offsets from `begin`), and
// `guard_message(error)`.
template <class Library>
class IteratorRegex : public Regex {
 public:
  IteratorRegex(std::string_view pattern, const Options& options)
      : anchoring_(options.anchoring), flags_(options.flags) {
    auto syntax = Library::syntax(options.flags);
    try {
      regex_.assign(pattern.begin(), pattern.end(), syntax);
    } catch (const typename Library::error& e) {
      throw EngineFailure("rejected", e.what());
    }
  }

  bool matches(std::string_view input) override {
    try {
      if (anchoring_ == Anchoring::full) return Library::match(input.begin(), input.end(), regex_);
      return every_match(input, flags_, [&](std::size_t from) {
        return Library::find(input.begin(), from, input.end(), regex_, flags_.sticky);
      });
    } catch (const typename Library::error& e) {
      throw EngineFailure("guarded", Library::guard_message(e));
    }
  }

 private:
  typename Library::regex regex_;
  Anchoring anchoring_;
  Flags flags_;
};

}  // namespace stallbench::regex
