#include "grid.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "node_lines.h"
#include "protocol.h"

namespace stallbench::bench {

// Empty when `value` is VALUE@LINE for one of p's node_values and a chosen line; else why not.
static std::string check_node_value(const Param& p, const std::string& value) {
  auto [base, line] = split_node_value(value);
  if (std::find(p.node_values.begin(), p.node_values.end(), base) == p.node_values.end())
    return p.name + "=" + value + ": only " + p.name + " values naming Node take @LINE";
  auto problem = check_node_line(line);
  return problem.empty() ? problem : p.name + "=" + value + ": " + problem;
}

static bool is_node_line(const Param& p) { return p.name == kNodeLineParam; }

static bool names_node(const Param& p, const std::string& value) {
  return std::find(p.node_values.begin(), p.node_values.end(), value) != p.node_values.end();
}

const Param* node_param(const Benchmark& b) {
  for (const auto& p : b.params)
    if (!p.node_values.empty()) return &p;
  return nullptr;
}

void add_node_line_params(Family& family) {
  for (auto& b : family.benchmarks) {
    const Param* node = node_param(b);
    if (node == nullptr) continue;
    Param line{.name = std::string(kNodeLineParam),
               .doc = "the Node line of a cell whose " + node->name + " names Node (26, system): one cell per line "
                      "chosen with --node; a cell that runs no Node has none"};
    b.params.insert(b.params.begin() + (node - b.params.data()) + 1, std::move(line));
  }
}

std::string check_value(const Param& p, const std::string& value) {
  if (is_node_line(p)) {
    auto problem = check_node_line(value);
    return problem.empty() ? problem : p.name + "=" + value + ": " + problem;
  }
  if (!p.node_values.empty() && value.find(kNodeLineMark) != std::string::npos) return check_node_value(p, value);
  if (p.range) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    bool integer = ec == std::errc() && end == value.data() + value.size() && !value.empty();
    if (!integer || n < p.range->first || n > p.range->second)
      return p.name + "=" + value + " is out of range: valid values are integers " +
             std::to_string(p.range->first) + "-" + std::to_string(p.range->second);
  }
  if (!p.choices.empty() && std::find(p.choices.begin(), p.choices.end(), value) == p.choices.end()) {
    std::string valid;
    for (const auto& c : p.choices) valid += (valid.empty() ? "" : ", ") + c;
    return p.name + "=" + value + " is not valid: valid values are " + valid;
  }
  if (reserved_in(value, false) != std::string::npos)
    return p.name + "=" + value + " contains a separator character (" + reserved_text(false) + ")";
  if (p.check) return p.check(value);
  return {};
}

// An override may name "benchmark.param" (what the orchestrator passes, so two benchmarks of a
// family can share a parameter name with different grids) or just "param".
static const std::vector<std::string>* override_of(const Benchmark& b, const std::string& name,
                                                  const GridOverrides& overrides) {
  for (const auto& key : {b.name + "." + name, name})
    if (auto it = overrides.find(key); it != overrides.end()) return &it->second;
  return nullptr;
}

static const std::vector<std::string>& grid_of(const Benchmark& b, const Param& p, const GridOverrides& overrides) {
  auto* given = override_of(b, p.name, overrides);
  return given != nullptr ? *given : p.values;
}

// A per-process parameter's one value in this process.
static std::vector<std::string> per_process_grid(const Param& p, const PerProcessValues& per_process) {
  auto it = per_process.find(p.name);
  if (it == per_process.end()) throw std::logic_error("per-process parameter " + p.name + " has no value in this process");
  return {it->second};
}

// A Node value's cells: one per chosen line (or per line the node_line override names), the line in
// its own parameter; VALUE@LINE (`--set runtime=node@26`) stands for that line's cell alone.
static std::vector<std::map<std::string, std::string>> per_node_line(std::map<std::string, std::string> cell,
                                                                     const Param& node,
                                                                     const std::vector<std::string>& lines) {
  auto [base, line] = split_node_value(cell[node.name]);
  if (!names_node(node, base)) return {cell};
  cell[node.name] = base;
  std::vector<std::map<std::string, std::string>> cells;
  for (const auto& l : lines) {
    if (!line.empty() && l != line) continue;
    cells.push_back(cell);
    cells.back()[std::string(kNodeLineParam)] = l;
  }
  return cells;
}

std::vector<std::map<std::string, std::string>> expand_grid(const Benchmark& b, const GridOverrides& overrides,
                                                            const PerProcessValues& per_process) {
  std::vector<std::string> lines;
  if (const auto* given = override_of(b, std::string(kNodeLineParam), overrides)) {
    for (const auto& line : *given)
      if (auto problem = check_value(Param{.name = std::string(kNodeLineParam)}, line); !problem.empty())
        throw std::invalid_argument(problem);
    lines = *given;
  } else {
    for (const auto& [line, path] : node_lines()) lines.push_back(line);
  }
  std::vector<std::map<std::string, std::string>> cells{{}};
  for (const auto& p : b.params) {
    if (is_node_line(p)) continue;
    std::vector<std::string> values;
    for (const auto& v : p.per_process ? per_process_grid(p, per_process) : grid_of(b, p, overrides)) {
      if (auto problem = check_value(p, v); !problem.empty()) throw std::invalid_argument(problem);
      values.push_back(v);
    }
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& cell : cells) {
      for (const auto& v : values) {
        auto extended = cell;
        extended[p.name] = v;
        next.push_back(std::move(extended));
      }
    }
    cells = std::move(next);
  }
  const Param* node = node_param(b);
  if (node == nullptr) return cells;
  std::vector<std::map<std::string, std::string>> expanded;
  for (auto& cell : cells)
    for (auto& one : per_node_line(std::move(cell), *node, lines)) expanded.push_back(std::move(one));
  return expanded;
}

std::vector<Cell> runnable_cells(const Benchmark& b, const GridOverrides& overrides,
                                 const PerProcessValues& per_process) {
  auto combinations = expand_grid(b, overrides, per_process);  // checks the values even when it cannot run here
  if (!b.measured_by.empty() || (b.missing && !b.missing().empty())) return {};
  std::vector<Cell> cells;
  for (auto& values : combinations) {
    Cell cell(std::move(values));
    if (!b.valid || b.valid(cell)) cells.push_back(std::move(cell));
  }
  return cells;
}

std::vector<std::string> tier_grid(const Param& p, Tier tier) {
  const auto& given = tier == Tier::smoke ? p.smoke : tier == Tier::nightly ? p.nightly : p.full;
  if (!given.empty() || p.values.empty()) return given;  // node_line: every chosen line
  return tier == Tier::smoke ? std::vector<std::string>{p.values.front()} : p.values;
}

std::string cell_name(const Benchmark& b, const Cell& cell) {
  std::string name = b.name;
  for (const auto& p : b.params)
    if (cell.has(p.name)) name += "/" + p.name + ":" + cell.text(p.name);
  return name;
}

PerProcessValues apply_per_process(const Family& family, const GridOverrides& overrides) {
  // Several benchmarks may declare the same per-process parameter (`pool`); the orchestrator
  // qualifies its override with the benchmark it runs ("slow-dns.pool=4"), so an override for any
  // of them wins over the environment and the first default.
  struct Choice {
    const Param* param;
    std::string value;
    bool given;
  };
  std::vector<std::pair<std::string, Choice>> chosen;
  for (const auto& b : family.benchmarks) {
    for (const auto& p : b.params) {
      if (!p.per_process) continue;
      auto it = std::find_if(chosen.begin(), chosen.end(), [&](auto& c) { return c.first == p.name; });
      const auto* given = override_of(b, p.name, overrides);
      if (given != nullptr && given->size() != 1)
        throw std::invalid_argument(p.name + " is set once per process: give one value; the orchestrator runs "
                                    "one process per value");
      if (given != nullptr && it != chosen.end() && it->second.given && it->second.value != given->front())
        throw std::invalid_argument(p.name + " is given two values for one process: " + it->second.value + " and " +
                                    given->front());
      if (given != nullptr) {
        Choice choice{&p, given->front(), true};
        if (it == chosen.end()) chosen.emplace_back(p.name, choice);
        else it->second = choice;
      } else if (it == chosen.end()) {
        // Run by hand, a library's own variable (UV_THREADPOOL_SIZE=8 bench_pool) says the value.
        const char* env = p.env.empty() ? nullptr : std::getenv(p.env.c_str());
        chosen.emplace_back(p.name, Choice{&p, env != nullptr ? env : p.values.front(), false});
      }
    }
  }
  PerProcessValues applied;
  for (const auto& [name, choice] : chosen) {
    if (auto problem = check_value(*choice.param, choice.value); !problem.empty()) throw std::invalid_argument(problem);
    if (!choice.param->env.empty()) setenv(choice.param->env.c_str(), choice.value.c_str(), 1);
    applied[name] = choice.value;
  }
  return applied;
}

std::string declaration_problem(const Family& family) {
  for (const auto& b : family.benchmarks) {
    if (b.measured_by.empty() == !b.make)
      return b.name + (b.make ? " has both make and measured_by" : " has neither make nor measured_by") +
             ": a benchmark is measured by its cells or by the orchestrator's command, one of the two";
    int with_node_values = 0;
    for (const auto& p : b.params) {
      if (!p.env.empty() && !p.per_process)
        return b.name + "." + p.name + " declares env " + p.env + " but is not per_process: a variable read once "
               "per process takes one value per process";
      if (is_node_line(p))
        return b.name + " declares a parameter " + p.name + ": the harness adds it to a benchmark whose parameter "
               "has node_values";
      with_node_values += p.node_values.empty() ? 0 : 1;
    }
    if (with_node_values > 1)
      return b.name + " has " + std::to_string(with_node_values) + " parameters with node_values: a cell runs in "
             "at most one Node line, named by its one node_line";
  }
  return {};
}

}  // namespace stallbench::bench
