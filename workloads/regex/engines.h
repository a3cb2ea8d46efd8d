// The engines this build has: every adapter whose library was found at configure time, and the
// two V8 ones (node, node-linear), which run in the Node binary they are given (Options::node).
// Names are the `engine` parameter's values.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stallbench::regex {

struct EngineInfo {
  std::string name;     // boost, std, pcre2, pcre2-jit, re2, hyperscan, node, node-linear
  std::string library;  // what meta.json records the version under (empty: the Node line's, recorded apart)
  std::string doc;
};

// In a fixed order (the backtracking engines first, then the linear ones, then V8).
std::vector<EngineInfo> available_engines();
std::vector<std::string> engine_names();

// library -> version of every engine built in, for meta.json (Node's are the orchestrator's).
std::vector<std::pair<std::string, std::string>> engine_versions();

// node and node-linear: engines that need Options::node.
bool runs_in_node(std::string_view engine);

}  // namespace stallbench::regex
