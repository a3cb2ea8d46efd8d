// Node side by side: JSON.parse (plus the record task) on the identical payload file, in a node
// child process of the cell. Optional: without Node (loop/node_process.h's find_node) the
// benchmark has no cells.
#pragma once

#include <string>

#include "answer.h"
#include "shapes.h"

namespace stallbench {

struct NodeParse {
  double first_ms = 0;   // a fresh isolate's first parse: heap growth included
  double steady_ms = 0;  // the second parse of the same text
  RecordAnswer answer;
  std::string version;
};

// `node` is the binary to run (loop::find_node()). Throws std::runtime_error with node's own message when it fails.
NodeParse run_node_parse(const std::string& node, const std::string& file, const RecordTask& task);

}  // namespace stallbench
