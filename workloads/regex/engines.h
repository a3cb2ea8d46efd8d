// Every regex engine stallbench knows, declared once: the table below is the `engine` parameter's
// choices, the family's `engines` table in the describe contract (which the orchestrator and the
// report read instead of repeating a name: the reference engines of --scan, who votes once on a
// right answer, which engines run once per Node line) and meta.json's versions. An engine whose
// library or runtime this build lacks stays in the table, `available` false.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine.h"

namespace stallbench::regex {

struct EngineInfo {
  std::string name;            // the `engine` parameter's value
  std::string implementation;  // engines sharing one implementation vote once on a right answer (pcre2-jit: pcre2)
  std::string language;        // the language whose programs use it: C++, JavaScript, Python, ...
  std::string runs_in;         // process (an adapter in the bench's process) or program (programs/<engine>/)
  std::string library;         // its key in meta.json `versions` (empty: the Node line's, recorded per line)
  std::string version_source;  // where that version is read
  std::string kind;            // backtracking, automaton or hybrid
  std::string semantics;       // what one character is, without the u flag and with it
  std::string flags;           // which of i, m, s, u it honours (a pattern with another is `rejected`)
  std::string refuses;         // what it refuses when compiling (`rejected`)
  std::string guard;           // its own limit while matching (`guarded`), or none
  // The Debian packages that bring it, as scripts/bootstrap reads them: space-separated, `a|b` the
  // first of the alternatives the archive offers; empty: none (V8 comes with the Node lines, from
  // npm). scripts/packages/regex.txt, CMake's install hint and docs/regex.md's engine table are
  // written from it (scripts/write-generated).
  std::string package;
  bool per_node_line = false;  // runs in each chosen Node line's binary: one engine per line (node@26)
  bool smoke = false;          // in the smoke grid, when available (the seed's curve, RE2's flat line)
  bool available = false;      // this build has it
  std::string doc;
};

// Every engine, in a fixed order: the C++ backtracking ones, the C++ automata, the other
// languages' engines, then V8.
std::vector<EngineInfo> all_engines();
// The available ones' names, in that order.
std::vector<std::string> engine_names();

// library -> version of every available engine, for meta.json (Node's are the orchestrator's).
std::vector<std::pair<std::string, std::string>> engine_versions();

// node and node-linear: engines that need Options::node.
bool runs_in_node(std::string_view engine);

// Starts the program an engine runs in (a JVM, a node, Python), when it runs in one, and returns
// once it answers: what a cell's budget should not count, since starting a language's runtime is
// not its engine's work. Nothing for an engine in this process. Throws as compile does.
void start_runtime(std::string_view engine, const Options& options);

}  // namespace stallbench::regex
