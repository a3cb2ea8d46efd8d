// Grids: validating parameter values, expanding the product into cells, naming cells, and the
// per-process parameters that must reach the environment before any library reads it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness.h"

namespace stallbench::bench {

using GridOverrides = std::map<std::string, std::vector<std::string>>;

struct Options {
  bool describe = false;
  GridOverrides overrides;
  std::vector<std::string> passthrough;  // argv[0] and everything for Google Benchmark
};

// Returns -1 to go on, or the exit code to return now (0 after --help, 2 after bad usage).
int parse_options(int argc, char** argv, const Family& family, Options& options);

// Empty when `value` is valid for `param`, else what is wrong and what is valid.
std::string check_value(const Param& param, const std::string& value);

// Every combination of the in-process parameters' grids, in declaration order.
// Throws std::invalid_argument on a value the parameter does not accept.
std::vector<std::map<std::string, std::string>> expand_grid(const Benchmark& b, const GridOverrides& overrides);

// "saturation/jobs:4/iters:300000/digest:sha256": the benchmark, then in-process parameters.
std::string cell_name(const Benchmark& b, const Cell& cell);

// Resolves each per-process parameter (override, else its environment variable, else the first
// default), exports it, and returns name -> value. Throws std::invalid_argument on a bad value.
std::vector<std::pair<std::string, std::string>> apply_per_process(const Family& family, const GridOverrides& overrides);

// The family as JSON for `stallbench list` and the orchestrator.
std::string describe(const Family& family);

// Versions every family reports: the compiler and Google Benchmark.
std::vector<std::pair<std::string, std::string>> common_versions();

}  // namespace stallbench::bench
