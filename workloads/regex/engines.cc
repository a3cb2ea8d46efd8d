#include "engines.h"

#include <chrono>
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

// An adapter's function when its library was found (STALLBENCH_HAVE_<ENGINE>), else null: the
// engine stays in the table, not available.
#ifdef STALLBENCH_HAVE_BOOST_REGEX
#define IF_BOOST(...) __VA_ARGS__
#else
#define IF_BOOST(...) nullptr
#endif
#ifdef STALLBENCH_HAVE_PCRE2
#define IF_PCRE2(...) __VA_ARGS__
#else
#define IF_PCRE2(...) nullptr
#endif
#ifdef STALLBENCH_HAVE_RE2
#define IF_RE2(...) __VA_ARGS__
#else
#define IF_RE2(...) nullptr
#endif
#ifdef STALLBENCH_HAVE_HYPERSCAN
#define IF_HYPERSCAN(...) __VA_ARGS__
#else
#define IF_HYPERSCAN(...) nullptr
#endif

// The table. Semantics, refusals and guards are what docs/regex.md's tables say in full.
std::vector<Entry> entries() {
  std::vector<Entry> all;
  auto in_process = [&](EngineInfo info, Compile compile, std::function<std::string()> version) {
    info.runs_in = "process";
    if (!compile) version = nullptr;
    all.push_back({std::move(info), std::move(compile), std::move(version)});
  };
  in_process({.name = "boost", .implementation = "boost", .language = "C++", .library = "boost-regex",
              .version_source = "BOOST_VERSION, compile time", .kind = "backtracking",
              .semantics = "bytes; u refused (needs Boost's ICU build)", .flags = "imsgy",
              .refuses = "the u flag; variable-length lookbehind",
              .guard = "error_complexity (states visited beyond a bound), error_stack",
              .package = "libboost-regex1.81-dev", .doc = "Boost.Regex, perl syntax"},
             IF_BOOST(compile_boost), IF_BOOST(boost_version));
  in_process({.name = "std", .implementation = "std", .language = "C++", .library = "libstdc++-regex",
              .version_source = "_GLIBCXX_RELEASE, compile time", .kind = "backtracking",
              .semantics = "bytes (char); u refused", .flags = "imgy",
              .refuses = "the s and u flags; lookbehind, named groups, inline flags",
              .guard = "none: an exponential match runs out its budget; a long input overflows the stack (crashed)",
              .package = "g++ (libstdc++)", .doc = "libstdc++ std::regex, ECMAScript grammar"},
             compile_std, std_version);
  in_process({.name = "pcre2", .implementation = "pcre2", .language = "C++", .library = "pcre2",
              .version_source = "pcre2_config(PCRE2_CONFIG_VERSION)", .kind = "backtracking",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsugy",
              .refuses = "JavaScript-only syntax: \\u0041, [^]",
              .guard = "match limit (-47), depth and heap limits", .package = "libpcre2-dev",
              .doc = "PCRE2 interpreter"},
             IF_PCRE2([](std::string_view p, const Options& o) { return compile_pcre2(p, o, false); }),
             IF_PCRE2(pcre2_version));
  in_process({.name = "pcre2-jit", .implementation = "pcre2", .language = "C++", .library = "pcre2",
              .version_source = "pcre2_config(PCRE2_CONFIG_VERSION)", .kind = "backtracking",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsugy",
              .refuses = "JavaScript-only syntax: \\u0041, [^]",
              .guard = "match limit (-47), JIT stack (-46, 32 KiB)", .package = "libpcre2-dev",
              .doc = "PCRE2 JIT-compiled to machine code"},
             IF_PCRE2([](std::string_view p, const Options& o) { return compile_pcre2(p, o, true); }),
             IF_PCRE2(pcre2_version));
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
       .package = "ruby", .doc = "Ruby's Onigmo, in a ruby program"}));
  all.push_back(program_entry(
      {.name = "java", .implementation = "java", .language = "Java", .library = "java-regex",
       .version_source = "java at configure time", .kind = "backtracking",
       .semantics = "bytes as Latin-1 characters; UTF-16 with u (matched by code point)", .flags = "imsugy",
       .refuses = "\\u{41}, [^]", .guard = "StackOverflowError (deep recursion)",
       .package = "openjdk-17-jdk-headless", .doc = "java.util.regex, in a JVM"}));
  in_process({.name = "re2", .implementation = "re2", .language = "C++", .library = "re2",
              .version_source = "dpkg-query libre2-dev (re2.pc says 0.0.0)", .kind = "automaton",
              .semantics = "bytes (Latin-1); UTF-8 code points with u", .flags = "imsugy",
              .refuses = "backreferences, lookaround, \\Z, possessive repeats; programs over its memory budget",
              .guard = "none needed", .package = "libre2-dev", .doc = "RE2"},
             IF_RE2(compile_re2), IF_RE2(re2_version));
  in_process({.name = "hyperscan", .implementation = "hyperscan", .language = "C++", .library = "hyperscan",
              .version_source = "hs_version()", .kind = "automaton",
              .semantics = "bytes; UTF-8 code points with u", .flags = "imsug",
              .refuses = "backreferences, lookaround, atomic groups, some large bounded repeats",
              .guard = "none needed", .package = "libhyperscan-dev | libvectorscan-dev",
              .doc = "Hyperscan (Vectorscan where Hyperscan does not exist)"},
             IF_HYPERSCAN(compile_hyperscan), IF_HYPERSCAN(hyperscan_version));
  all.push_back(program_entry(
      {.name = "go", .implementation = "go", .language = "Go", .library = "go-regexp",
       .version_source = "go version at configure time", .kind = "automaton",
       .semantics = "bytes as Latin-1 characters (runes); UTF-8 code points with u", .flags = "imsug",
       .refuses = "backreferences, lookaround, \\Z, \\u0041, possessive repeats, repeats over 1000",
       .guard = "none needed", .package = "golang-go", .doc = "Go's regexp, in a Go program"}));
  all.push_back(program_entry(
      {.name = "rust", .implementation = "rust", .language = "Rust", .library = "rust-regex",
       .version_source = "dpkg-query librust-regex-dev", .kind = "automaton",
       .semantics = "bytes (Unicode off); UTF-8 code points with u (\\w, \\d Unicode then)", .flags = "imsug",
       .refuses = "backreferences, lookaround, \\Z, possessive repeats; programs over its size limit",
       .guard = "none needed", .package = "rustc, cargo, librust-regex-dev, librust-regex+default-dev",
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
         .guard = "backtrack stack (RangeError)", .package = "the Node lines (scripts/bootstrap --node)",
         .per_node_line = true,
         .doc = linear ? "V8 with --enable-experimental-regexp-engine-on-excessive-backtracks: its linear engine "
                         "after 50,000 backtracks"
                       : "V8 irregexp, in each Node line's binary"});
    entry.version = nullptr;
    all.push_back(std::move(entry));
  }
  for (auto& entry : all) entry.info.available = entry.compile != nullptr;
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
