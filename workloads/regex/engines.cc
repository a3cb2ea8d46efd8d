#include "engines.h"

#include <chrono>
#include <functional>

#include "adapters.h"
#include "engine.h"

namespace stallbench::regex {
namespace {

struct Entry {
  EngineInfo info;
  std::function<std::unique_ptr<Regex>(std::string_view, Anchoring)> compile;
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
                 [](std::string_view p, Anchoring a) { return compile_pcre2(p, a, false); }, pcre2_version});
  all.push_back({{"pcre2-jit", "pcre2", "PCRE2 JIT (backtracking; guards: match limit, JIT stack)"},
                 [](std::string_view p, Anchoring a) { return compile_pcre2(p, a, true); }, pcre2_version});
#endif
#ifdef STALLBENCH_HAVE_RE2
  all.push_back({{"re2", "re2", "RE2 (automata, linear; refuses backreferences and lookaround)"}, compile_re2,
                 re2_version});
#endif
#ifdef STALLBENCH_HAVE_HYPERSCAN
  all.push_back({{"hyperscan", "hyperscan", "Hyperscan (automata, linear; refuses backreferences and lookaround)"},
                 compile_hyperscan, hyperscan_version});
#endif
  if (!node_path().empty()) {
    all.push_back({{"node", "node", "V8 irregexp through node (backtracking; guard: backtrack stack)"},
                   [](std::string_view p, Anchoring a) { return compile_node(p, a, false); }, node_version});
    all.push_back({{"node-linear", "node",
                    "V8 through node with --enable-experimental-regexp-engine-on-excessive-backtracks"},
                   [](std::string_view p, Anchoring a) { return compile_node(p, a, true); }, node_version});
  }
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

std::unique_ptr<Regex> compile(std::string_view engine, std::string_view pattern, Anchoring anchoring) {
  for (auto& entry : entries())
    if (entry.info.name == engine) return entry.compile(pattern, anchoring);
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

std::vector<std::pair<std::string, std::string>> engine_versions(bool ask_node) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& entry : entries()) {
    bool seen = false;
    for (auto& [library, _] : out) seen = seen || library == entry.info.library;
    if (seen) continue;
    bool skip = entry.info.library == "node" && !ask_node;
    out.emplace_back(entry.info.library, skip ? "(asked only by --stallbench-describe)" : entry.version());
  }
  return out;
}

}  // namespace stallbench::regex
