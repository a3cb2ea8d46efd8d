// Grids: validating parameter values, expanding the product into cells, naming cells, and the
// per-process parameters (one value per process; exported first when a library reads them from the
// environment).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness.h"

namespace stallbench::bench {

using GridOverrides = std::map<std::string, std::vector<std::string>>;
using PerProcessValues = std::map<std::string, std::string>;  // parameter -> this process's value

struct Options {
  bool describe = false;
  std::string cells;                          // --stallbench-cells BENCHMARK: list its cells as JSON
  std::vector<std::string> grids;             // [BENCHMARK.]NAME=V1,V2 as given
  std::map<std::string, std::string> inputs;  // --stallbench-input NAME=VALUE, checked against the declared
  int records_fd = -1;                        // --stallbench-records-fd; -1: none
  bool serve = false;                         // --stallbench-serve: cells from stdin, one a line
  GridOverrides overrides;                    // the grids, once checked against the family (check_grids)
  std::vector<std::string> passthrough;       // argv[0] and everything for Google Benchmark
};

// Both return -1 to go on, or the exit code to return now (0 after --help, 2 after bad usage, having
// said what was wrong in one line). parse_options reads the command line before the family exists
// (it may be built from its inputs); check_grids then fills `overrides` from `grids`.
int parse_options(int argc, char** argv, const FamilyFromInputs& family, Options& options);
int check_grids(const Family& family, Options& options);

// Empty when `value` is valid for `param`, else what is wrong and what is valid.
std::string check_value(const Param& param, const std::string& value);

// Every combination of the parameters' grids, in declaration order; a per-process parameter takes
// this process's value from `per_process` (apply_per_process). Throws std::invalid_argument on a
// value the parameter does not accept.
std::vector<std::map<std::string, std::string>> expand_grid(const Benchmark& b, const GridOverrides& overrides,
                                                            const PerProcessValues& per_process);

// The cells this process runs: expand_grid's combinations that the benchmark finds valid; none when
// the benchmark cannot run on this machine (Benchmark::missing). Throws like expand_grid.
std::vector<Cell> runnable_cells(const Benchmark& b, const GridOverrides& overrides,
                                 const PerProcessValues& per_process);

// A profile tier's grid, its fallback applied: smoke defaults to the first value, nightly and full
// to `values`. The one place the fallbacks are written (describe gives every tier in full).
enum class Tier { smoke, nightly, full };
std::vector<std::string> tier_grid(const Param& p, Tier tier);

// "saturation/jobs:4/iters:300000/digest:sha256/pool:4": the benchmark, then every parameter.
std::string cell_name(const Benchmark& b, const Cell& cell);

// Resolves each per-process parameter (override, else its `env` variable when it has one, else the
// first default), exports the ones with an `env`, and returns name -> value. Throws
// std::invalid_argument on a bad value or two values for one process.
PerProcessValues apply_per_process(const Family& family, const GridOverrides& overrides);

// The benchmark's parameter whose values may name Node (Param::node_values), or null.
const Param* node_param(const Benchmark& b);
// Gives every benchmark with such a parameter the parameter node_line (protocol.h), right after
// it: declared like the others (described, given with --stallbench-grid, checked), its values the
// chosen Node lines. The harness calls it once the family's declarations are checked.
void add_node_line_params(Family& family);

// What is wrong with the family's declarations (a benchmark author's mistake), empty when nothing.
std::string declaration_problem(const Family& family);

// The family as JSON for `stallbench list` and the orchestrator (contract/protocol.schema.json's
// `describe`), and the cells one process runs (its `cells`, for --stallbench-cells).
std::string describe(const Family& family, const std::vector<Input>& inputs = {});
std::string describe_cells(const Benchmark& b, const std::vector<Cell>& cells);

// Versions every family reports: the compiler and Google Benchmark.
std::vector<std::pair<std::string, std::string>> common_versions();

}  // namespace stallbench::bench
