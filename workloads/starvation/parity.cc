#include "parity.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../common/node_process.h"
#include "../loop/random_program.h"

#if !defined(STALLBENCH_SCENARIO_DIR) || !defined(STALLBENCH_LOOP_NODE_DIR)
#error "STALLBENCH_SCENARIO_DIR and STALLBENCH_LOOP_NODE_DIR must name workloads/loop/scenarios and workloads/loop/node (set by CMake)"
#endif

namespace stallbench::loop {
namespace {

namespace fs = std::filesystem;

double percent(int part, int whole) { return whole == 0 ? 0 : 100.0 * part / whole; }

// The order `s` gave under Node, from its JavaScript written into `work_dir`.
Order node_order(const Scenario& s, const std::string& node, const std::string& work_dir) {
  std::string script = (fs::path(work_dir) / (s.name + (s.module == ModuleKind::esm ? ".mjs" : ".cjs"))).string();
  std::ofstream(script) << to_javascript(s);
  return run_node_json(node, {script}).get<Order>();
}

// The model of `line` with Node's start-up tails, and both branches where a handled throw's queues
// drain at one of two points from run to run (throw_race).
ModelSettings possible_orders(const Scenario& s, int line, const std::vector<double>& tails) {
  ModelSettings settings{.line = line, .startup_tail_ms = tails};
  if (throw_race(s, node_line_model(line)))
    settings.thrown_queues = kThrowRaceBranches;
  return settings;
}

}  // namespace

std::vector<Scenario> shipped_scenarios() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(STALLBENCH_SCENARIO_DIR))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Scenario> out;
  for (const auto& file : files) out.push_back(load_scenario(file));
  return out;
}

std::vector<double> node_startup_tails(const std::string& node, int runs) {
  // As trace_parity.tails_from_probes: from the setTimeout call's return to the loop, plus the
  // mean time from its clock read to that return (the share of runs a millisecond tick fell
  // between them); runs with an uncertain millisecond base are left out.
  std::vector<double> gaps;
  int ticked = 0;
  for (int i = 0; i < runs; ++i) {
    auto probe = run_node_json(node, {std::string(STALLBENCH_LOOP_NODE_DIR) + "/startup_tail.cjs"});
    int after_read = probe.at("after_read");
    if (!probe.at("exact").get<bool>() || (after_read != 0 && after_read != 1)) continue;
    ticked += after_read;
    gaps.push_back(std::max(probe.at("gap_ms").get<double>(), 0.0));
  }
  if (gaps.empty()) throw std::runtime_error("no usable start-up tail probe of " + node);
  double read_to_return = static_cast<double>(ticked) / static_cast<double>(gaps.size());
  for (auto& gap : gaps) gap += read_to_return;
  return gaps;
}

int modelled_line_of(const std::string& node_version) {
  int major = 0;
  std::sscanf(node_version.c_str(), "v%d", &major);
  const auto& lines = modelled_lines();
  return std::find(lines.begin(), lines.end(), major) != lines.end() ? major : newest_modelled_line();
}

ScenarioParity scenario_parity(const Scenario& s, const std::string& node, int line, const std::vector<double>& tails,
                               int runs, const std::string& work_dir) {
  const auto& expected = s.expected_on(line);
  auto count = [&](const Order& order, int& in_expected, int& first) {
    in_expected += std::find(expected.begin(), expected.end(), order) != expected.end();
    first += !expected.empty() && order == expected.front();
  };
  ScenarioParity p{runs};
  int model_expected = 0, model_first = 0, node_expected = 0, node_first = 0;
  for (const auto& [order, n] : run_scenario_times(s, possible_orders(s, line, tails), runs))
    for (int i = 0; i < n; ++i) count(order, model_expected, model_first);
  for (int i = 0; i < runs; ++i) count(node_order(s, node, work_dir), node_expected, node_first);
  p.model_expected_pct = percent(model_expected, runs);
  p.model_first_pct = percent(model_first, runs);
  p.node_expected_pct = percent(node_expected, runs);
  p.node_first_pct = percent(node_first, runs);
  return p;
}

bool random_program_agrees(std::uint64_t seed, std::uint64_t index, const std::string& node, int line,
                           const std::vector<double>& tails, const std::string& work_dir) {
  Scenario s = load_scenario(write_random_program(seed, index, work_dir));
  ModelSettings settings = possible_orders(s, line, tails);
  if (!starts_before_loop(s, node_line_model(line))) settings.startup_tail_ms.clear();
  // One run, or one of each branch where the model gives both (their odds are not modelled):
  // the program agrees when Node's order is one the model takes.
  auto orders = run_scenario_times(s, settings, static_cast<int>(std::max<std::size_t>(settings.thrown_queues.size(), 1)));
  Order theirs = node_order(s, node, work_dir);
  return std::any_of(orders.begin(), orders.end(), [&](const OrderCount& o) { return o.order == theirs; });
}

}  // namespace stallbench::loop
