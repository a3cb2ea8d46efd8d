#include <CLI/CLI.hpp>
#include <fcntl.h>

#include <algorithm>
#include <cstdio>

#include "grid.h"
#include "node_lines.h"
#include "protocol.h"

namespace stallbench::bench {

static std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(sep, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

// `name` is "param" or "benchmark.param".
static const Param* find_param(const Family& family, const std::string& name) {
  for (const auto& b : family.benchmarks)
    for (const auto& p : b.params)
      if (p.name == name || b.name + "." + p.name == name) return &p;
  return nullptr;
}

// Empty when `fd` is an open descriptor, which is then closed on exec: a Node child or a browser the
// benchmark starts must not hold the orchestrator's pipe open after this process ends.
static std::string adopt_records_fd(int fd) {
  int flags = fcntl(fd, F_GETFD);
  if (fd < 0 || flags < 0) return "--stallbench-records-fd " + std::to_string(fd) + ": not an open file descriptor";
  fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  return {};
}

int parse_options(int argc, char** argv, const FamilyFromInputs& family, Options& options) {
  CLI::App app{"stallbench " + family.name + " benchmarks (Google Benchmark flags are passed through)"};
  app.allow_extras();
  app.add_flag("--stallbench-describe", options.describe, "print the family's benchmarks, grids and metrics as JSON");
  app.add_option("--stallbench-cells", options.cells, "BENCHMARK: print the cells this process would run as JSON");
  app.add_option("--stallbench-grid", options.grids, "[BENCHMARK.]NAME=V1,V2: replace a parameter's grid (repeatable)");
  std::vector<std::string> nodes, inputs;
  app.add_option("--stallbench-node", nodes, "LINE=PATH: a Node line to measure (repeatable, in order)");
  app.add_option("--stallbench-input", inputs, "NAME=VALUE: one of the family's inputs (repeatable)");
  app.add_option("--stallbench-records-fd", options.records_fd, "N: write one record per repetition to this descriptor");
  app.add_flag("--stallbench-serve", options.serve,
               "run the cells read from stdin, one a line (REPETITIONS BENCH.NAME=VALUE ...), in this process");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  auto refuse = [&](const std::string& why) {
    std::fprintf(stderr, "%s: %s\n", family.name.c_str(), why.c_str());
    return 2;
  };
  NodeLines lines;
  for (const auto& node : nodes) {
    auto eq = node.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == node.size() ||
        reserved_in(node.substr(0, eq), true) != std::string::npos)
      return refuse("--stallbench-node " + node + ": expected LINE=PATH (e.g. 26=/path/to/node)");
    lines.emplace_back(node.substr(0, eq), node.substr(eq + 1));
  }
  set_node_lines(std::move(lines));
  for (const auto& input : inputs) {
    auto eq = input.find('=');
    std::string name = input.substr(0, eq);
    bool declared = std::any_of(family.inputs.begin(), family.inputs.end(), [&](auto& i) { return i.name == name; });
    if (eq == std::string::npos || !declared) {
      std::string valid;
      for (const auto& i : family.inputs) valid += (valid.empty() ? "" : ", ") + i.name;
      return refuse("--stallbench-input " + input + ": expected NAME=VALUE with NAME one of the family's inputs (" +
                    (valid.empty() ? "it has none" : valid) + ")");
    }
    options.inputs[name] = input.substr(eq + 1);
  }
  if (options.records_fd != -1)
    if (auto problem = adopt_records_fd(options.records_fd); !problem.empty()) return refuse(problem);
  options.passthrough.push_back(argv[0]);
  for (auto& extra : app.remaining()) options.passthrough.push_back(extra);
  return -1;
}

int check_grids(const Family& family, Options& options) {
  for (const auto& grid : options.grids) {
    auto eq = grid.find('=');
    std::string name = grid.substr(0, eq);
    const Param* param = eq == std::string::npos ? nullptr : find_param(family, name);
    if (param == nullptr) {
      std::string valid;
      for (const auto& b : family.benchmarks)
        for (const auto& p : b.params) valid += (valid.empty() ? "" : ", ") + p.name;
      std::fprintf(stderr, "%s: --stallbench-grid %s: unknown parameter (valid: %s)\n", family.name.c_str(),
                   grid.c_str(), valid.c_str());
      return 2;
    }
    auto values = split(grid.substr(eq + 1), ',');
    for (const auto& v : values) {
      if (auto problem = check_value(*param, v); !problem.empty()) {
        std::fprintf(stderr, "%s: %s\n", family.name.c_str(), problem.c_str());
        return 2;
      }
    }
    options.overrides[name] = values;
  }
  return -1;
}

}  // namespace stallbench::bench
