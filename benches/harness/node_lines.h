// The Node binaries a run measures. The orchestrator chooses the Node lines (`--node`) and passes
// each as --stallbench-node LINE=PATH, in order; a parameter value that names Node
// (Param::node_values, e.g. runtime `node`, regex engine `node-linear`) then stands for one cell
// per line, VALUE@LINE (`node@26`, `node-linear@system`), so results keep one row per runtime and
// version. Run by hand without the flag, such values have no cells.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace stallbench::bench {

using NodeLines = std::vector<std::pair<std::string, std::string>>;  // line -> binary path

void set_node_lines(NodeLines lines);
const NodeLines& node_lines();

// "node-linear@26" -> {"node-linear", "26"}; a value without '@' -> {value, ""}.
std::pair<std::string, std::string> split_node_value(const std::string& value);

}  // namespace stallbench::bench
