// stallbench_trace: runs ordering scenarios on the runtime; what `scripts/stallbench trace` calls.
//
//   stallbench_trace run [--runs N] FILE...   every file checked first, then each run N times (by
//                                             default its own `runs`); JSON on stdout: the libuv in
//                                             use, its timer phase, each scenario's distinct
//                                             orders with how many runs gave each
//   stallbench_trace javascript FILE          the scenario as a Node program
//   stallbench_trace timer-phase VERSION      where libuv VERSION (e.g. 1.46.0) runs timers
//
// Bad input (a malformed scenario, an unknown op, a bad delay, a missing file): one line on
// stderr naming the file and the JSON path, exit 2, before anything runs.
#include <uv.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "workloads/loop/scenario.h"

using namespace stallbench::loop;
using nlohmann::json;

namespace {

json distinct_orders(const Scenario& scenario, int runs) {
  std::vector<std::pair<std::vector<std::string>, int>> seen;  // in order of first appearance
  for (int i = 0; i < runs; ++i) {
    auto order = run_scenario(scenario);
    auto found = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == order; });
    if (found == seen.end()) {
      seen.emplace_back(std::move(order), 1);
    } else {
      ++found->second;
    }
  }
  json out = json::array();
  for (const auto& [order, count] : seen) out.push_back({{"order", order}, {"count", count}});
  return out;
}

int run(const std::vector<std::string>& files, int runs) {
  std::vector<Scenario> scenarios;
  for (const auto& file : files) scenarios.push_back(load_scenario(file));  // all checked before any runs
  TimerPhase phase = linked_timer_phase();
  json out = {{"libuv", uv_version_string()}, {"timer_phase", phase.text}, {"timers_after_poll", phase.after_poll},
              {"scenarios", json::array()}};
  for (const auto& s : scenarios) {
    int n = runs > 0 ? runs : s.runs;
    out["scenarios"].push_back({{"file", s.file}, {"name", s.name}, {"module", module_name(s.module)},
                                {"analysis", s.analysis}, {"seed", s.seed}, {"expect", s.expect}, {"runs", n},
                                {"orders", distinct_orders(s, n)}});
  }
  std::cout << out.dump() << "\n";
  return 0;
}

int timer_phase_of(const std::string& version) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "%u.%u", &major, &minor) != 2)
    throw std::invalid_argument("timer-phase: '" + version + "' is not a libuv version like 1.46.0");
  std::cout << timer_phase(major, minor).text << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs ordering scenarios on stallbench's Node-semantics runtime."};
  app.require_subcommand(1);
  std::vector<std::string> files;
  std::string file, version;
  int runs = 0;
  auto* run_cmd = app.add_subcommand("run", "run scenarios, print their orders as JSON");
  run_cmd->add_option("--runs", runs, "runs per scenario (default: the scenario's own `runs`)")->check(CLI::Range(1, 1000));
  run_cmd->add_option("files", files, "scenario files")->required();
  auto* js_cmd = app.add_subcommand("javascript", "print a scenario as a Node program");
  js_cmd->add_option("file", file, "scenario file")->required();
  auto* phase_cmd = app.add_subcommand("timer-phase", "where a libuv version runs timers");
  phase_cmd->add_option("version", version, "e.g. 1.46.0")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "stallbench_trace: " << e.what() << "\n";
    return 2;
  }
  try {
    if (*run_cmd) return run(files, runs);
    if (*js_cmd) {
      std::cout << to_javascript(load_scenario(file));
      return 0;
    }
    return timer_phase_of(version);
  } catch (const std::invalid_argument& e) {  // ScenarioError among them: bad input
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stallbench_trace: " << e.what() << "\n";
    return 1;
  }
}
