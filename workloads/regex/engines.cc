#include "engines.h"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>

#include "adapters.h"
#include "engine.h"

namespace stallbench::regex {
namespace {

struct Entry {
  EngineInfo info;
  std::function<std::unique_ptr<Regex>(std::string_view, const Options&)> compile;
  std::function<std::string()> version;
};

std::vector<Entry> entries() {
  std::vector<Entry> all;
#ifdef STALLBENCH_HAVE_BOOST_REGEX
  all.push_back({{"boost", "boost-regex", "Boost.Regex, perl syntax (backtracking; guard: error_complexity)"},
                 compile_boost, boost_version});
#endif
  all.push_back({{"std", "libstdc++-regex", "libstdc++ std::regex, ECMAScript (backtracking; no guard)"},
                 compile_std, std_version});
#ifdef STALLBENCH_HAVE_PCRE2
  all.push_back({{"pcre2", "pcre2", "PCRE2 interpreter (backtracking; guard: match limit)"},
                 [](std::string_view p, const Options& o) { return compile_pcre2(p, o, false); }, pcre2_version});
  all.push_back({{"pcre2-jit", "pcre2", "PCRE2 JIT (backtracking; guards: match limit, JIT stack)"},
                 [](std::string_view p, const Options& o) { return compile_pcre2(p, o, true); }, pcre2_version});
#endif
#ifdef STALLBENCH_HAVE_RE2
  all.push_back({{"re2", "re2", "RE2 (automata, linear; refuses backreferences and lookaround)"}, compile_re2,
                 re2_version});
#endif
#ifdef STALLBENCH_HAVE_HYPERSCAN
  all.push_back({{"hyperscan", "hyperscan", "Hyperscan (automata, linear; refuses backreferences and lookaround)"},
                 compile_hyperscan, hyperscan_version});
#endif
  // Their version is the Node line's, which the orchestrator records (meta.json `nodes`).
  all.push_back({{"node", "", "V8 irregexp through node (backtracking; guard: backtrack stack)"},
                 [](std::string_view p, const Options& o) { return compile_node(p, o, false); }, nullptr});
  all.push_back({{"node-linear", "", "V8 through node with --enable-experimental-regexp-engine-on-excessive-backtracks"},
                 [](std::string_view p, const Options& o) { return compile_node(p, o, true); }, nullptr});
  return all;
}

}  // namespace

Batch Regex::run_batch(std::span<const std::string_view> inputs, int repeat) {
  Batch batch;
  auto started = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    for (auto input : inputs) batch.matched += matches(input) ? 1 : 0;
  batch.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return batch;
}

Flags Flags::parse(std::string_view letters) {
  Flags flags;
  for (char c : letters) {
    bool* flag = c == 'i' ? &flags.ignore_case : c == 's' ? &flags.dot_all : c == 'm' ? &flags.multiline
               : c == 'u' ? &flags.unicode : nullptr;
    if (flag == nullptr) throw std::invalid_argument(std::string("unknown regex flag '") + c + "' (valid: i, m, s, u)");
    *flag = true;
  }
  return flags;
}

std::string Flags::letters() const {
  return std::string(ignore_case ? "i" : "") + (multiline ? "m" : "") + (dot_all ? "s" : "") + (unicode ? "u" : "");
}

void refuse_flag(std::string_view engine, char flag, std::string_view why) {
  throw EngineFailure("rejected", std::string("flag ") + flag + ": " + std::string(why) + " (" + std::string(engine) +
                                      " cannot honour it)");
}

bool runs_in_node(std::string_view engine) { return engine == "node" || engine == "node-linear"; }

std::unique_ptr<Regex> compile(std::string_view engine, std::string_view pattern, const Options& options) {
  for (auto& entry : entries())
    if (entry.info.name == engine) return entry.compile(pattern, options);
  throw std::invalid_argument("unknown or unavailable regex engine '" + std::string(engine) + "'");
}

std::vector<EngineInfo> available_engines() {
  std::vector<EngineInfo> out;
  for (auto& entry : entries()) out.push_back(entry.info);
  return out;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> out;
  for (auto& entry : entries()) out.push_back(entry.info.name);
  return out;
}

std::vector<std::pair<std::string, std::string>> engine_versions() {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& entry : entries()) {
    bool seen = !entry.version;
    for (auto& [library, _] : out) seen = seen || library == entry.info.library;
    if (!seen) out.emplace_back(entry.info.library, entry.version());
  }
  return out;
}

}  // namespace stallbench::regex
