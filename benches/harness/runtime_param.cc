#include "runtime_param.h"

#include <algorithm>

namespace stallbench::bench {

Param runtime_param(const RuntimeGrids& grids, std::string doc) {
  std::vector<std::string> choices;
  for (const auto& runtime : {kStallbenchRuntime, kNodeRuntime})
    for (const auto* grid : {&grids.values, &grids.smoke, &grids.nightly, &grids.full})
      if (std::find(grid->begin(), grid->end(), runtime) != grid->end()) {
        choices.push_back(runtime);
        break;
      }
  return {.name = "runtime", .values = grids.values, .smoke = grids.smoke, .full = grids.full,
          .nightly = grids.nightly, .choices = choices, .doc = std::move(doc), .node_values = {kNodeRuntime}};
}

bool runs_in_node(const Cell& cell) { return cell.text("runtime") != kStallbenchRuntime; }

std::string runtime_node_binary(const Cell& cell) { return node_binary(cell); }

}  // namespace stallbench::bench
