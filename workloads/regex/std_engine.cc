// libstdc++ std::regex, ECMAScript grammar. It has no guard: its matcher recurses once per
// repetition step, so a long enough input overflows the stack and kills the process (recorded by
// the orchestrator as `crashed`), and an exponential pattern simply runs until the budget ends.
#include <regex>

#include "adapters.h"

namespace stallbench::regex {
namespace {

class StdRegex : public Regex {
 public:
  StdRegex(std::string_view pattern, Anchoring anchoring) : anchoring_(anchoring) {
    try {
      regex_.assign(pattern.begin(), pattern.end(), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw EngineFailure("rejected", e.what());
    }
  }

  bool matches(std::string_view input) override {
    try {
      return anchoring_ == Anchoring::full ? std::regex_match(input.begin(), input.end(), regex_)
                                           : std::regex_search(input.begin(), input.end(), regex_);
    } catch (const std::regex_error& e) {  // libstdc++ throws none while matching today; if it does, it is a guard
      throw EngineFailure("guarded", e.what());
    }
  }

 private:
  std::regex regex_;
  Anchoring anchoring_;
};

}  // namespace

std::unique_ptr<Regex> compile_std(std::string_view pattern, Anchoring anchoring) {
  return std::make_unique<StdRegex>(pattern, anchoring);
}

std::string std_version() {
  return "libstdc++ " + std::to_string(_GLIBCXX_RELEASE) + " (" + std::to_string(__GLIBCXX__) + ")";
}

}  // namespace stallbench::regex
