#include <nlohmann/json.hpp>

#include "grid.h"
#include "protocol.h"

#ifndef STALLBENCH_BENCHMARK_VERSION
#define STALLBENCH_BENCHMARK_VERSION "unknown"
#endif

namespace stallbench::bench {

std::vector<std::pair<std::string, std::string>> common_versions() {
  return {{"compiler", std::string("gcc ") + __VERSION__}, {"google-benchmark", STALLBENCH_BENCHMARK_VERSION}};
}

std::string describe(const Family& family, const std::vector<Input>& inputs) {
  using nlohmann::json;
  json out = {{"protocol", kProtocolVersion}, {"family", family.name}, {"doc", family.doc}, {"inputs", json::array()},
              {"benchmarks", json::array()}};
  out["reserved"] = {{"separators", kSeparators}, {"node_line", std::string(1, kNodeLineMark)},
                     {"node_line_param", kNodeLineParam}};
  for (const auto& i : inputs) out["inputs"].push_back({{"name", i.name}, {"doc", i.doc}, {"fallback", i.fallback}});
  json versions = json::object();
  for (const auto& [k, v] : common_versions()) versions[k] = v;
  for (const auto& [k, v] : family.versions) versions[k] = v;
  out["versions"] = versions;
  out["npm_sets"] = family.npm_sets;
  out["os_packages"] = family.os_packages;
  out["tables"] = json::object();
  for (const auto& table : family.tables) {
    json rows = json::array();
    for (const auto& row : table.rows) {
      json fields = json::object();
      for (const auto& [key, value] : row) std::visit([&](const auto& v) { fields[key] = v; }, value);
      rows.push_back(fields);
    }
    out["tables"][table.name] = {{"doc", table.doc}, {"rows", rows}};
  }
  for (const auto& b : family.benchmarks) {
    json params = json::array(), metrics = json::array();
    for (const auto& p : b.params) {
      json param = {{"name", p.name},
                    {"values", p.values},
                    {"smoke", tier_grid(p, Tier::smoke)},
                    {"full", tier_grid(p, Tier::full)},
                    {"nightly", tier_grid(p, Tier::nightly)},
                    {"work", p.work},
                    {"choices", p.choices},
                    {"node_values", p.node_values},
                    {"env", p.env},
                    {"per_process", p.per_process},
                    {"doc", p.doc}};
      param["range"] = p.range ? json::array({p.range->first, p.range->second}) : json(nullptr);
      params.push_back(param);
    }
    json constants = json::array();
    for (const auto& c : b.constants) constants.push_back({{"name", c.name}, {"value", c.value}, {"doc", c.doc}});
    for (const auto& m : b.metrics)
      metrics.push_back({{"name", m.name},
                         {"unit", m.unit},
                         {"better", m.better == Better::lower ? "lower" : "higher"},
                         {"tracked", m.tracked},
                         {"min_effect_pct", m.min_effect_pct},
                         {"doc", m.doc}});
    out["benchmarks"].push_back({{"name", b.name},
                                 {"doc", b.doc},
                                 {"params", params},
                                 {"metrics", metrics},
                                 {"timeout_s", b.timeout_s},
                                 {"instructions", b.instructions},
                                 {"outcomes", b.outcomes},
                                 {"missing", b.missing ? b.missing() : ""},
                                 {"reserves_address_space", b.reserves_address_space},
                                 {"shares_process", b.shares_process},
                                 {"measured_by", b.measured_by},
                                 {"constants", constants}});
  }
  return out.dump(2);
}

std::string describe_cells(const Benchmark& b, const std::vector<Cell>& cells) {
  // In declaration order (ordered_json): the orchestrator names a cell's files and shows its
  // progress with its parameters in the order the benchmark declares them.
  nlohmann::ordered_json out = {{"protocol", kProtocolVersion}, {"benchmark", b.name}};
  out["cells"] = nlohmann::ordered_json::array();
  for (const auto& cell : cells) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (const auto& p : b.params)
      if (cell.has(p.name)) values[p.name] = cell.text(p.name);
    out["cells"].push_back(values);
  }
  return out.dump(2);
}

}  // namespace stallbench::bench
