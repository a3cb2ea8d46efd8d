// The `runtime` parameter of a family that runs one experiment both on stallbench's own C++ side
// (`stallbench`) and in real Node (`node`: one cell per Node line the orchestrator chose, its line in
// the cell's node_line: 26, system; see node_lines.h). Declared here once, so every family spells its values, its
// choices and its Node values alike, and reads a cell's runtime the same way.
#pragma once

#include <string>
#include <vector>

#include "harness.h"

namespace stallbench::bench {

inline const std::string kStallbenchRuntime = "stallbench";
inline const std::string kNodeRuntime = "node";

// Which of the two runtimes each profile runs, with Param's meaning for an empty grid (smoke: the
// first default value; nightly and full: the default grid).
struct RuntimeGrids {
  std::vector<std::string> values;
  std::vector<std::string> smoke;
  std::vector<std::string> nightly;
  std::vector<std::string> full;
};

// Its choices are the runtimes the grids name, so a family that only runs Node refuses
// `runtime=stallbench` before anything runs.
Param runtime_param(const RuntimeGrids& grids, std::string doc);

// Whether the cell runs in Node (runtime node, its line in node_line), and that line's binary.
bool runs_in_node(const Cell& cell);
std::string runtime_node_binary(const Cell& cell);

}  // namespace stallbench::bench
