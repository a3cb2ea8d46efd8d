// libstdc++ std::regex, ECMAScript grammar. It has no guard: its matcher recurses once per
// repetition step, so a long enough input overflows the stack and kills the process (recorded by
// the orchestrator as `crashed`), and an exponential pattern simply runs until the budget ends.
// GCC 12 reports std::function members inside libstdc++'s <regex> as maybe uninitialized when
// sanitizers are on; the warning is in the library's code, instantiated here, and a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>

#include "adapters.h"
#include "iterator_regex.h"

namespace stallbench::regex {
namespace {

struct StdLibrary {
  using regex = std::regex;
  using error = std::regex_error;
  static std::regex::flag_type syntax(const Flags& flags) {
    if (flags.dot_all) refuse_flag("std", 's', "std::regex has no dotAll option");
    if (flags.unicode) refuse_flag("std", 'u', "std::regex matches bytes (char), not code points");
    auto syntax = std::regex::ECMAScript;
    if (flags.ignore_case) syntax |= std::regex::icase;
    if (flags.multiline) syntax |= std::regex::multiline;
    return syntax;
  }

  template <class It>
  static bool match(It first, It last, const regex& re) { return std::regex_match(first, last, re); }
  template <class It>
  static Found find(It begin, std::size_t from, It end, const regex& re, bool sticky) {
    std::match_results<It> m;
    namespace rc = std::regex_constants;
    auto flags = (from > 0 ? rc::match_prev_avail : rc::match_default) | (sticky ? rc::match_continuous : rc::match_default);
    if (!std::regex_search(begin + static_cast<std::ptrdiff_t>(from), end, m, re, flags)) return std::nullopt;
    return std::pair<std::size_t, std::size_t>(static_cast<std::size_t>(m[0].first - begin),
                                               static_cast<std::size_t>(m[0].second - begin));
  }

  // libstdc++ throws nothing while matching today; if it ever does, that is its guard.
  static std::string guard_message(const error& e) { return e.what(); }
};

}  // namespace

std::unique_ptr<Regex> compile_std(std::string_view pattern, const Options& options) {
  return std::make_unique<IteratorRegex<StdLibrary>>(pattern, options);
}

std::string std_version() {
  return "libstdc++ " + std::to_string(_GLIBCXX_RELEASE) + " (" + std::to_string(__GLIBCXX__) + ")";
}

}  // namespace stallbench::regex
