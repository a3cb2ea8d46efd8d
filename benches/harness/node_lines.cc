#include "node_lines.h"

#include <stdexcept>

#include "harness.h"
#include "protocol.h"

namespace stallbench::bench {

static NodeLines& chosen() {
  static NodeLines lines;
  return lines;
}

void set_node_lines(NodeLines lines) { chosen() = std::move(lines); }

const NodeLines& node_lines() { return chosen(); }

std::string node_binary(const std::string& value) {
  auto [base, line] = split_node_value(value);
  for (const auto& [name, path] : chosen())
    if (name == line) return path;
  throw std::invalid_argument(value + " names no Node line given to this process (--stallbench-node LINE=PATH)");
}

std::string node_line(const std::string& value) { return split_node_value(value).second; }

}  // namespace stallbench::bench
