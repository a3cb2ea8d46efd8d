// std::regex and Boost.Regex have one API (Boost's is the ancestor of std's): one adapter for
// both, parameterised by a small traits struct naming the library's types, syntax flags and how it
// reports a guard.
#pragma once

#include <string>
#include <string_view>

#include "engine.h"

namespace stallbench::regex {

// Library provides: `regex`, `error`, `syntax(flags)` (throwing EngineFailure for a flag it cannot
// honour), `match(first, last, re)`, `search(first, last, re)`, and `guard_message(error)`.
template <class Library>
class IteratorRegex : public Regex {
 public:
  IteratorRegex(std::string_view pattern, const Options& options) : anchoring_(options.anchoring) {
    auto syntax = Library::syntax(options.flags);
    try {
      regex_.assign(pattern.begin(), pattern.end(), syntax);
    } catch (const typename Library::error& e) {
      throw EngineFailure("rejected", e.what());
    }
  }

  bool matches(std::string_view input) override {
    try {
      return anchoring_ == Anchoring::full ? Library::match(input.begin(), input.end(), regex_)
                                           : Library::search(input.begin(), input.end(), regex_);
    } catch (const typename Library::error& e) {
      throw EngineFailure("guarded", Library::guard_message(e));
    }
  }

 private:
  typename Library::regex regex_;
  Anchoring anchoring_;
};

}  // namespace stallbench::regex
