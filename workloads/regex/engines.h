// The engines this build has: every adapter whose library was found at configure time, and the
// two V8 ones when node is on PATH at run time. Names are the `engine` parameter's values.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace stallbench::regex {

struct EngineInfo {
  std::string name;     // boost, std, pcre2, pcre2-jit, re2, hyperscan, node, node-linear
  std::string library;  // what meta.json records the version under
  std::string doc;
};

// In a fixed order (the backtracking engines first, then the linear ones, then V8).
std::vector<EngineInfo> available_engines();
std::vector<std::string> engine_names();

// library -> version of every available engine, for meta.json. Asking node means starting it
// (~0.1 s), which a bench process that only runs one cell should not pay: without `ask_node`
// node's entry says so.
std::vector<std::pair<std::string, std::string>> engine_versions(bool ask_node);

}  // namespace stallbench::regex
