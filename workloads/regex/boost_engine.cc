// Boost.Regex 1.81, perl syntax. Its guard: a match that visits more states than a bound derived
// from the pattern and input size throws error_complexity; a backtracking stack that outgrows its
// block budget throws error_stack. Both are `guarded`.
#include <boost/regex.hpp>
#include <boost/version.hpp>

#include "adapters.h"

namespace stallbench::regex {
namespace {

// no_mod_m / no_mod_s: ^ $ and . as in every other adapter (Boost's perl default is multiline).
constexpr auto kSyntax = boost::regex::perl | boost::regex::no_mod_m | boost::regex::no_mod_s;

const char* code_name(boost::regex_constants::error_type code) {
  switch (code) {
    case boost::regex_constants::error_complexity: return "error_complexity";
    case boost::regex_constants::error_stack: return "error_stack";
    default: return "regex_error";
  }
}

class BoostRegex : public Regex {
 public:
  BoostRegex(std::string_view pattern, Anchoring anchoring) : anchoring_(anchoring) {
    try {
      regex_.assign(pattern.begin(), pattern.end(), kSyntax);
    } catch (const boost::regex_error& e) {
      throw EngineFailure("rejected", e.what());
    }
  }

  bool matches(std::string_view input) override {
    try {
      return anchoring_ == Anchoring::full ? boost::regex_match(input.begin(), input.end(), regex_)
                                           : boost::regex_search(input.begin(), input.end(), regex_);
    } catch (const boost::regex_error& e) {
      throw EngineFailure("guarded", std::string(code_name(e.code())) + ": " + e.what());
    }
  }

 private:
  boost::regex regex_;
  Anchoring anchoring_;
};

}  // namespace

std::unique_ptr<Regex> compile_boost(std::string_view pattern, Anchoring anchoring) {
  return std::make_unique<BoostRegex>(pattern, anchoring);
}

std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
         std::to_string(BOOST_VERSION % 100);
}

}  // namespace stallbench::regex
