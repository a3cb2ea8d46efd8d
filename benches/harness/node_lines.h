// The Node binaries a run measures. The orchestrator chooses the Node lines (`--node`) and passes
// each as --stallbench-node LINE=PATH, in order; a parameter value that names Node
// (Param::node_values, e.g. runtime `node`, regex engine `node-linear`) then stands for one cell
// per line, the line in the cell's parameter node_line (runtime=node;node_line=26), so results keep
// one row per runtime and version. Run by hand without the flag, such values have no cells.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "protocol.h"

namespace stallbench::bench {

using NodeLines = std::vector<std::pair<std::string, std::string>>;  // line -> binary path

void set_node_lines(NodeLines lines);
const NodeLines& node_lines();
// The binary of a chosen line; throws std::invalid_argument naming the chosen lines otherwise.
std::string node_binary_of_line(const std::string& line);
// Empty when `line` is a chosen line, else why not (naming the chosen ones).
std::string check_node_line(const std::string& line);

// The one-word spelling VALUE@LINE (`--set runtime=node@26`, a helper's engine list):
// "node-linear@26" -> {"node-linear", "26"}; a value without '@' -> {value, ""}. The last mark
// splits. Inline: the regex family's helpers (regex_check, regex_probe) read the same words
// without the harness.
inline std::pair<std::string, std::string> split_node_value(const std::string& value) {
  auto at = value.rfind(kNodeLineMark);
  if (at == std::string::npos) return {value, ""};
  return {value.substr(0, at), value.substr(at + 1)};
}

}  // namespace stallbench::bench
