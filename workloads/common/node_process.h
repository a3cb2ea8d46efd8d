// Node as a peer to measure against: optional everywhere. Found through $STALLBENCH_NODE when it
// is set (a path, or "" / "none" for no Node at all), else as `node` on PATH.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stallbench {

// The Node binary's path, or "" when there is none.
std::string find_node();

struct NodeVersions {
  std::string node;   // process.version, e.g. v20.20.2
  std::string libuv;  // process.versions.uv, e.g. 1.46.0
};
NodeVersions node_versions(const std::string& node);  // throws std::runtime_error

// Runs `node args...` and returns the last line it printed on stdout, parsed as JSON. The child
// dies with this process. Throws std::runtime_error with the last line of its stderr when it fails.
nlohmann::json run_node_json(const std::string& node, const std::vector<std::string>& args);

}  // namespace stallbench
