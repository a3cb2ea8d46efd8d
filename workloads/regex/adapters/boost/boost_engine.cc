// Boost.Regex 1.81, perl syntax. Its guard: a match that visits more states than a bound derived
// from the pattern and input size throws error_complexity; a backtracking stack that outgrows its
// block budget throws error_stack. Both are `guarded`.
#include <boost/regex.hpp>
#include <boost/version.hpp>

#include "adapters.h"
#include "iterator_regex.h"

namespace stallbench::regex {
namespace {

struct BoostLibrary {
  using regex = boost::regex;
  using error = boost::regex_error;
  // no_mod_m / no_mod_s: ^ $ and . as in every other adapter (Boost's perl default is multiline).
  static boost::regex::flag_type syntax(const Flags& flags) {
    if (flags.unicode) refuse_flag("boost", 'u', "boost::regex over char matches bytes (Unicode needs its ICU build)");
    unsigned syntax = boost::regex::perl;
    if (!flags.multiline) syntax |= boost::regex::no_mod_m;
    syntax |= flags.dot_all ? boost::regex::mod_s : boost::regex::no_mod_s;
    if (flags.ignore_case) syntax |= boost::regex::icase;
    return static_cast<boost::regex::flag_type>(syntax);
  }

  template <class It>
  static bool match(It first, It last, const regex& re) { return boost::regex_match(first, last, re); }
  template <class It>
  static Found find(It begin, std::size_t from, It end, const regex& re, bool sticky) {
    boost::match_results<It> m;
    auto flags = (from > 0 ? boost::match_prev_avail : boost::match_default) |
                 (sticky ? boost::match_continuous : boost::match_default);
    if (!boost::regex_search(begin + static_cast<std::ptrdiff_t>(from), end, m, re, flags)) return std::nullopt;
    return std::pair<std::size_t, std::size_t>(static_cast<std::size_t>(m[0].first - begin),
                                               static_cast<std::size_t>(m[0].second - begin));
  }

  static std::string guard_message(const error& e) {
    const char* code = e.code() == boost::regex_constants::error_complexity ? "error_complexity"
                       : e.code() == boost::regex_constants::error_stack    ? "error_stack"
                                                                             : "regex_error";
    return std::string(code) + ": " + e.what();
  }
};

}  // namespace

std::unique_ptr<Regex> compile_boost(std::string_view pattern, const Options& options) {
  return std::make_unique<IteratorRegex<BoostLibrary>>(pattern, options);
}

std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
         std::to_string(BOOST_VERSION % 100);
}

}  // namespace stallbench::regex
