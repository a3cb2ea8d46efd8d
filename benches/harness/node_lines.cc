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

std::string check_node_line(const std::string& line) {
  std::string names;
  for (const auto& [name, path] : chosen()) {
    if (name == line) return {};
    names += (names.empty() ? "" : ", ") + name;
  }
  return "Node line " + line + " was not chosen (chosen: " + (names.empty() ? "none" : names) +
         "; choose lines with --node)";
}

std::string node_binary_of_line(const std::string& line) {
  for (const auto& [name, path] : chosen())
    if (name == line) return path;
  throw std::invalid_argument(check_node_line(line) + " (--stallbench-node LINE=PATH)");
}

std::string node_binary(const Cell& cell) {
  const std::string param(kNodeLineParam);
  if (!cell.has(param)) throw std::invalid_argument("this cell runs no Node: it has no " + param);
  return node_binary_of_line(cell.text(param));
}

}  // namespace stallbench::bench
