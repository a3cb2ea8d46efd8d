// PCRE2 (8-bit), as the interpreter or JIT-compiled. Its guards, all with their default settings:
// the match limit (-47, 10,000,000 backtracking steps), the depth and heap limits, and for the JIT
// its machine stack (-46, 32 KiB unless the application gives it more, which most do not).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "adapters.h"
#include "every_match.h"

namespace stallbench::regex {
namespace {

std::string error_text(int code) {
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(code, buffer, sizeof buffer);
  return reinterpret_cast<const char*>(buffer);
}

bool is_limit(int rc) {
  return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
         rc == PCRE2_ERROR_JIT_STACKLIMIT;
}

// DOLLAR_ENDONLY: `$` at the very end only, as in every other adapter (unless multiline). UTF
// without UCP: code points, with \w and \d still ASCII, as JavaScript's u flag; an input that is
// not UTF-8 fails to match instead of being an error.
uint32_t compile_options(const Flags& flags) {
  uint32_t options = flags.multiline ? PCRE2_MULTILINE : PCRE2_DOLLAR_ENDONLY;
  if (flags.ignore_case) options |= PCRE2_CASELESS;
  if (flags.dot_all) options |= PCRE2_DOTALL;
  if (flags.unicode) options |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  return options;
}

class Pcre2Regex : public Regex {
 public:
  Pcre2Regex(std::string_view pattern, const Options& given, bool jit) : flags_(given.flags) {
    uint32_t options = compile_options(given.flags);
    if (given.anchoring == Anchoring::full) options |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
    int code = 0;
    PCRE2_SIZE offset = 0;
    code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &code, &offset,
                          nullptr);
    if (code_ == nullptr)
      throw EngineFailure("rejected", "offset " + std::to_string(offset) + ": " + error_text(code));
    if (jit) {
      if (int rc = pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE); rc != 0) {
        pcre2_code_free(code_);
        throw EngineFailure("rejected", "JIT compile: " + error_text(rc));
      }
    }
    data_ = pcre2_match_data_create_from_pattern(code_, nullptr);
    if (data_ == nullptr) {
      pcre2_code_free(code_);
      throw std::bad_alloc();
    }
  }
  ~Pcre2Regex() override {
    pcre2_match_data_free(data_);
    pcre2_code_free(code_);
  }
  Pcre2Regex(const Pcre2Regex&) = delete;
  Pcre2Regex& operator=(const Pcre2Regex&) = delete;

  // pcre2_match runs the JIT code when the pattern was JIT-compiled, the interpreter otherwise.
  bool matches(std::string_view input) override {
    return every_match(input, flags_, [&](std::size_t from) { return find(input, from); });
  }

 private:
  Found find(std::string_view input, std::size_t from) {
    int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(input.data()), input.size(), from,
                         flags_.sticky ? PCRE2_ANCHORED : 0, data_, nullptr);
    if (rc >= 0) {
      PCRE2_SIZE* at = pcre2_get_ovector_pointer(data_);
      return std::pair<std::size_t, std::size_t>(at[0], at[1]);
    }
    if (rc == PCRE2_ERROR_NOMATCH) return std::nullopt;
    std::string message = "error " + std::to_string(rc) + ": " + error_text(rc);
    if (is_limit(rc)) throw EngineFailure("guarded", message);
    throw std::runtime_error("pcre2_match: " + message);
  }

  Flags flags_;
  pcre2_code* code_ = nullptr;
  pcre2_match_data* data_ = nullptr;
};

}  // namespace

std::unique_ptr<Regex> compile_pcre2(std::string_view pattern, const Options& options) {
  return std::make_unique<Pcre2Regex>(pattern, options, false);
}

std::unique_ptr<Regex> compile_pcre2_jit(std::string_view pattern, const Options& options) {
  return std::make_unique<Pcre2Regex>(pattern, options, true);
}

std::string pcre2_version() {
  char buffer[64];
  pcre2_config(PCRE2_CONFIG_VERSION, buffer);
  return buffer;
}

std::string pcre2_jit_version() { return pcre2_version(); }

}  // namespace stallbench::regex
