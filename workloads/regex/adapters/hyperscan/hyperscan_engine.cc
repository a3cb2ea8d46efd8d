// Hyperscan (or its fork Vectorscan, same API): automata compiled for SIMD scanning, linear in the
// input. It refuses at compile time what it cannot run that way (backreferences, lookaround,
// atomic groups, some large bounded repeats): `rejected` with its message. Block mode, stopping
// at the first match: a yes/no answer like every other adapter's.
#include <hs.h>

#include "adapters.h"

namespace stallbench::regex {
namespace {

int stop_at_first_match(unsigned, unsigned long long, unsigned long long, unsigned, void*) { return 1; }
// With g: every match is reported, as Hyperscan runs a global search (its matches end where a
// backtracking engine's would, not one after the other: it is linear either way).
int count_every_match(unsigned, unsigned long long, unsigned long long, unsigned, void* found) {
  ++*static_cast<std::size_t*>(found);
  return 0;
}

class HyperscanRegex : public Regex {
 public:
  HyperscanRegex(std::string_view pattern, const Options& options) : global_(options.flags.global) {
    if (options.flags.sticky) refuse_flag("hyperscan", 'y', "Hyperscan cannot anchor a match where the last one ended");
    std::string expression(pattern);
    if (options.anchoring == Anchoring::full) expression = "\\A(?:" + expression + ")\\z";
    hs_compile_error_t* error = nullptr;
    // ALLOWEMPTY: patterns that can match the empty string (^(a|b)*$) are legal here too. UTF8
    // without UCP: code points, \w still ASCII, as JavaScript's u flag.
    unsigned flags = (global_ ? 0 : HS_FLAG_SINGLEMATCH) | HS_FLAG_ALLOWEMPTY;
    if (options.flags.ignore_case) flags |= HS_FLAG_CASELESS;
    if (options.flags.dot_all) flags |= HS_FLAG_DOTALL;
    if (options.flags.multiline) flags |= HS_FLAG_MULTILINE;
    if (options.flags.unicode) flags |= HS_FLAG_UTF8;
    if (hs_compile(expression.c_str(), flags, HS_MODE_BLOCK, nullptr, &database_, &error) != HS_SUCCESS) {
      std::string message = error != nullptr ? error->message : "hs_compile failed";
      hs_free_compile_error(error);
      throw EngineFailure("rejected", message);
    }
    if (hs_alloc_scratch(database_, &scratch_) != HS_SUCCESS) {
      hs_free_database(database_);
      throw std::runtime_error("hs_alloc_scratch failed");
    }
  }
  ~HyperscanRegex() override {
    hs_free_scratch(scratch_);
    hs_free_database(database_);
  }
  HyperscanRegex(const HyperscanRegex&) = delete;
  HyperscanRegex& operator=(const HyperscanRegex&) = delete;

  bool matches(std::string_view input) override {
    std::size_t found = 0;
    hs_error_t rc = hs_scan(database_, input.data(), static_cast<unsigned>(input.size()), 0, scratch_,
                            global_ ? count_every_match : stop_at_first_match, &found);
    if (rc == HS_SCAN_TERMINATED) return true;
    if (rc == HS_SUCCESS) return found > 0;
    throw std::runtime_error("hs_scan failed with " + std::to_string(rc));
  }

 private:
  bool global_;
  hs_database_t* database_ = nullptr;
  hs_scratch_t* scratch_ = nullptr;
};

}  // namespace

std::unique_ptr<Regex> compile_hyperscan(std::string_view pattern, const Options& options) {
  return std::make_unique<HyperscanRegex>(pattern, options);
}

std::string hyperscan_version() { return hs_version(); }

}  // namespace stallbench::regex
