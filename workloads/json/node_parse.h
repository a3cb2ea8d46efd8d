// Node side by side, in a node child process of the cell (the Node line the cell's `runtime`
// names): JSON.parse plus the record task on the identical payload file, or JSON.parse plus a walk
// of every value of a user's file, to steady state.
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

// `node` is the binary to run. Throws std::runtime_error with node's own message when it fails.
NodeParse run_node_parse(const std::string& node, const std::string& file, const RecordTask& task);

struct NodeWalk {
  double first_ms = 0;   // a fresh isolate's first JSON.parse + walk
  double steady_ms = 0;  // the median of the repeats
  std::size_t iterations = 0;
  WalkAnswer answer;
  std::string rejected;  // JSON.parse's (or the UTF-8 decoder's) message when it refused the file
  std::string version;
};

// JSON.parse + walk of `file`, first once, then repeated until `min_ms` have passed.
NodeWalk run_node_walk(const std::string& node, const std::string& file, double min_ms);

}  // namespace stallbench
