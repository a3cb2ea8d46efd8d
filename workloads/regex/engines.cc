#include "engines.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "adapters.h"
#include "engine.h"
#include "program_engine.h"

namespace stallbench::regex {
namespace {

using Compile = std::function<std::unique_ptr<Regex>(std::string_view, const Options&)>;

struct Entry {
  EngineInfo info;
  Compile compile;                        // null: this build does not have the engine
  std::function<std::string()> version;  // null: recorded by the orchestrator (the Node lines)
  std::function<void(const Options&)> start;  // null: it runs in this process
};

// An engine that runs in a program of its own (programs/<name>/, built by CMake when its runtime
// was found): available when the build has that program.
Entry program_entry(EngineInfo info) {
  info.runs_in = "program";
  const ProgramSpec* spec = find_program(info.name);
  if (spec == nullptr) return {std::move(info), nullptr, nullptr, nullptr};
  Compile compile = [spec](std::string_view p, const Options& o) { return compile_program(*spec, p, o); };
  std::function<std::string()> version;
  if (!spec->version.empty()) version = [spec] { return spec->version; };
  return {std::move(info), compile, version, [spec](const Options& o) { start_program(*spec, o); }};
}

// The adapters this build compiled (adapters.h): an engine's compile and version functions, found
// by its name; an engine whose adapter is missing stays in the table, not available.
struct Adapter {
  std::string_view engine;
  Compile compile;
  std::function<std::string()> version;
};
const std::vector<Adapter>& adapters() {
  static const std::vector<Adapter> built{
#define STALLBENCH_REGEX_ADAPTER(id, engine) {engine, compile_##id, id##_version},
#include "regex_adapters.inc"
#undef STALLBENCH_REGEX_ADAPTER
  };
  return built;
}

// The table. Semantics, refusals and guards are what docs/regex.md's tables say in full.
std::vector<Entry> entries() {
  std::vector<Entry> all;
  auto in_process = [&](EngineInfo info) {
    info.runs_in = "process";
    for (const auto& adapter : adapters())
      if (adapter.engine == info.name) return all.push_back({std::move(info), adapter.compile, adapter.version});
    all.push_back({std::move(info), nullptr, nullptr});
  };
  in_process({.name = "boost", .implementation = "boost", .language = "C++", .library = "boost-regex",
              .version_source = "BOOST_VERSION, compile time", .kind = "backtracking",
              .semantics = "bytes; u refused (needs Boost's ICU build)", .flags = "imsgy",
              .refuses = "the u flag; variable-length lookbehind",
              .guard = "error_complexity (states visited beyond a bound), error_stack",
              .package = "libboost-regex1.81-dev", .doc = "Boost.Regex, perl syntax"});
  in_process({.name = "std", .implementation = "std", .language = "C++", .library = "libstdc++-regex",
              .version_source = "_GLIBCXX_RELEASE, compile time", .kind = "backtracking",
              .semantics = "bytes (char); u refused", .flags = "imgy",
              .refuses = "the s and u flags; lookbehind, named groups, inline flags",
              .guard = "none: an exponential match runs out its budget; a long input overflows the stack (crashed)",
              .package = "g++", .smoke = true, .doc = "libstdc++ std::regex, ECMAScript grammar"});
  in_process({.name = "pcre2", .implementation = "pcre2", .language = "C++", .library = "pcre2",
              .version_source = "pcre2_config(PCRE2_CONFIG_VERSION)", .kind = "backtracking",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsugy",
              .refuses = "JavaScript-only syntax: \\u0041, [^]",
              .guard = "match limit (-47), depth and heap limits", .package = "libpcre2-dev",
              .doc = "PCRE2 interpreter"});
  in_process({.name = "pcre2-jit", .implementation = "pcre2", .language = "C++", .library = "pcre2",
              .version_source = "pcre2_config(PCRE2_CONFIG_VERSION)", .kind = "backtracking",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsugy",
              .refuses = "JavaScript-only syntax: \\u0041, [^]",
              .guard = "match limit (-47), JIT stack (-46, 32 KiB)", .package = "libpcre2-dev",
              .doc = "PCRE2 JIT-compiled to machine code"});
  all.push_back(program_entry(
      {.name = "python", .implementation = "python", .language = "Python", .library = "python-re",
       .version_source = "python3 at configure time", .kind = "backtracking",
       .semantics = "bytes as Latin-1 characters; code points with u", .flags = "imsugy",
       .refuses = "\\x{41}, \\u{41}, [^], inline flags not at the start", .guard = "none",
       .package = "python3", .doc = "Python's re (sre), in a python3 program"}));
  all.push_back(program_entry(
      {.name = "ruby", .implementation = "ruby", .language = "Ruby", .library = "ruby-onigmo",
       .version_source = "ruby at configure time", .kind = "backtracking",
       .semantics = "bytes as ISO-8859-1 characters; UTF-8 code points with u", .flags = "imsugy",
       .refuses = "\\u{...} without u on a non-ASCII code point, [^]", .guard = "none (Regexp.timeout is Ruby 3.2's)",
       .package = "ruby|ruby3.1", .doc = "Ruby's Onigmo, in a ruby program"}));
  all.push_back(program_entry(
      {.name = "java", .implementation = "java", .language = "Java", .library = "java-regex",
       .version_source = "java at configure time", .kind = "backtracking",
       .semantics = "bytes as Latin-1 characters; UTF-16 with u (matched by code point)", .flags = "imsugy",
       .refuses = "\\u{41}, [^]", .guard = "StackOverflowError (deep recursion)",
       .package = "openjdk-17-jdk-headless|default-jdk-headless", .doc = "java.util.regex, in a JVM"}));
  in_process({.name = "re2", .implementation = "re2", .language = "C++", .library = "re2",
              .version_source = "dpkg-query libre2-dev (re2.pc says 0.0.0)", .kind = "automaton",
              .semantics = "bytes (Latin-1); UTF-8 code points with u", .flags = "imsugy",
              .refuses = "backreferences, lookaround, \\Z, possessive repeats; programs over its memory budget",
              .guard = "none needed", .package = "libre2-dev", .smoke = true, .doc = "RE2"});
  in_process({.name = "hyperscan", .implementation = "hyperscan", .language = "C++", .library = "hyperscan",
              .version_source = "hs_version()", .kind = "automaton",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsug",
              .refuses = "backreferences, lookaround, atomic groups, some large bounded repeats",
              .guard = "none needed", .package = "libhyperscan-dev|libvectorscan-dev",
              .doc = "Hyperscan (Vectorscan where Hyperscan does not exist)"});
  all.push_back(program_entry(
      {.name = "go", .implementation = "go", .language = "Go", .library = "go-regexp",
       .version_source = "go version at configure time", .kind = "automaton",
       .semantics = "bytes as Latin-1 characters (runes); UTF-8 code points with u", .flags = "imsug",
       .refuses = "backreferences, lookaround, \\Z, \\u0041, possessive repeats, repeats over 1000",
       .guard = "none needed", .package = "golang-go|golang", .doc = "Go's regexp, in a Go program"}));
  all.push_back(program_entry(
      {.name = "rust", .implementation = "rust", .language = "Rust", .library = "rust-regex",
       .version_source = "dpkg-query librust-regex-dev", .kind = "automaton",
       .semantics = "bytes (Unicode off); UTF-8 code points with u (\\w, \\d Unicode then)", .flags = "imsug",
       .refuses = "backreferences, lookaround, \\Z, possessive repeats; programs over its size limit",
       .guard = "none needed", .package = "cargo|cargo-web librust-regex+default-dev|librust-regex-dev",
       .doc = "Rust's regex crate, in a Rust program"}));
  // Their version is the Node line's, which the orchestrator records (meta.json `nodes`).
  for (bool linear : {false, true}) {
    Entry entry = program_entry(
        {.name = linear ? "node-linear" : "node", .implementation = "node", .language = "JavaScript",
         .version_source = "the Node line (meta.json nodes)", .kind = linear ? "hybrid" : "backtracking",
         .semantics = "bytes as Latin-1 characters; UTF-16 with u", .flags = "imsugy",
         .refuses = linear ? "as node; its linear engine takes no i, u, backreference, lookahead or counted repeat "
                             "over a small bound: on those it keeps backtracking (fell back)"
                           : "inline flags, possessive repeats, \\Z as an anchor (reads Z)",
         .guard = "backtrack stack (RangeError)", .package = "",
         .per_node_line = true,
         .doc = linear ? "V8 with --enable-experimental-regexp-engine-on-excessive-backtracks: its linear engine "
                         "after 50,000 backtracks"
                       : "V8 irregexp, in each Node line's binary"});
    entry.version = nullptr;
    all.push_back(std::move(entry));
  }
  for (auto& entry : all) entry.info.available = entry.compile != nullptr;
  // An adapter the build compiled but no row names would be measured by nobody, silently.
  for (const auto& adapter : adapters())
    if (std::none_of(all.begin(), all.end(), [&](const Entry& e) { return e.info.name == adapter.engine; }))
      throw std::logic_error("regex adapter " + std::string(adapter.engine) +
                             " has no row in the engine table (workloads/regex/engines.cc)");
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

Batch Regex::fastest(std::string_view input, const Rounds& rounds) {
  std::string_view one[] = {input};
  Batch first = run_batch(one, 1);
  int repeat = static_cast<int>(std::min(10000.0, std::ceil(rounds.floor_ms / std::max(first.ms, 1e-4))));
  double best = first.ms;
  for (int round = 0; round < rounds.after(first.ms); ++round) best = std::min(best, run_batch(one, repeat).ms / repeat);
  return {first.matched, best};
}

std::string Regex::answers(std::span<const std::string_view> inputs) {
  std::string out;
  for (auto input : inputs) {
    try {
      out.push_back(matches(input) ? '1' : '0');
    } catch (const EngineFailure&) {
      out.push_back('g');
    } catch (const std::exception&) {
      out.push_back('e');
    }
  }
  return out;
}

Flags Flags::parse(std::string_view letters) {
  Flags flags;
  for (char c : letters) {
    bool* flag = c == 'i' ? &flags.ignore_case : c == 's' ? &flags.dot_all : c == 'm' ? &flags.multiline
               : c == 'u' ? &flags.unicode : c == 'g' ? &flags.global : c == 'y' ? &flags.sticky : nullptr;
    if (flag == nullptr)
      throw std::invalid_argument(std::string("unknown regex flag '") + c + "' (valid: i, m, s, u, g, y)");
    *flag = true;
  }
  return flags;
}

std::string Flags::letters() const {
  return std::string(ignore_case ? "i" : "") + (multiline ? "m" : "") + (dot_all ? "s" : "") + (unicode ? "u" : "") +
         (global ? "g" : "") + (sticky ? "y" : "");
}

void refuse_flag(std::string_view engine, char flag, std::string_view why) {
  throw EngineFailure("rejected", std::string("flag ") + flag + ": " + std::string(why) + " (" + std::string(engine) +
                                      " cannot honour it)");
}

bool runs_in_node(std::string_view engine) {
  for (const auto& entry : entries())
    if (entry.info.name == engine) return entry.info.per_node_line;
  return false;
}

std::unique_ptr<Regex> compile(std::string_view engine, std::string_view pattern, const Options& options) {
  for (auto& entry : entries())
    if (entry.info.name == engine && entry.compile) return entry.compile(pattern, options);
  throw std::invalid_argument("unknown or unavailable regex engine '" + std::string(engine) + "'");
}

void start_runtime(std::string_view engine, const Options& options) {
  for (auto& entry : entries())
    if (entry.info.name == engine && entry.compile && entry.start) return entry.start(options);
}

std::vector<EngineInfo> all_engines() {
  std::vector<EngineInfo> out;
  for (auto& entry : entries()) out.push_back(entry.info);
  return out;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> out;
  for (auto& entry : entries())
    if (entry.info.available) out.push_back(entry.info.name);
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
