// stallbench_trace: runs ordering scenarios on the runtime; what `scripts/stallbench trace` calls.
//
//   stallbench_trace run [--runs N] [--model-node LINE] [--startup-tail-ms MS,...] FILE...
//                        every file checked first, then each run N times (by default its own
//                        `runs`) on the model of Node LINE (default: the newest modelled line),
//                        spending the given start-up tails in turn; JSON on stdout: the model's
//                        line and semantics, each scenario's distinct orders with how many runs
//                        gave each and the orders it expects on that line
//   stallbench_trace javascript FILE          the scenario as a Node program
//   stallbench_trace timer-phase VERSION      where libuv VERSION (e.g. 1.46.0) runs timers
//
// Bad input (a malformed scenario, an unknown op, a bad delay, a missing file, more runs than
// the time limit allows): one line on stderr naming the file and the JSON path, exit 2, before
// anything runs. A run still going kRunLimitMs after what its timers and busy work take (an op
// waiting on something that never comes: a FIFO nobody writes): one line naming the run and the
// op it likely waits on, exit 3 (run_limit.h).
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/run_limit.h"
#include "workloads/loop/scenario.h"

using namespace stallbench::loop;
using nlohmann::json;

namespace {

// All the runs of one call together: the caller's time limit is a few times this.
constexpr double kCallLimitMs = 600'000;

json orders_json(const std::vector<OrderCount>& orders) {
  json out = json::array();
  for (const auto& [order, count] : orders) out.push_back({{"order", order}, {"count", count}});
  return out;
}

// What a path is when it is neither a regular file nor a folder: the kinds an fs op can wait on
// forever (a FIFO's open waits for a writer, a terminal's read for input) or read without end.
const char* unusual_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return nullptr;
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

// The line the tool ends with when a run of `s` outlives the limit (kRunLimitMs beyond what its
// timers and busy work take).
std::string timeout_line(const Scenario& s, int run, int runs) {
  auto seconds = [](double ms) { return std::to_string(static_cast<int>(ms / 1000)); };
  std::string line = s.file + ": timeout: run " + std::to_string(run + 1) + " of " + std::to_string(runs) +
                     " did not end within the trace's limit of " + seconds(kRunLimitMs) + " s" +
                     (s.min_run_ms > 0 ? " beyond the " + seconds(s.min_run_ms) + " s its timers and busy work take" : "");
  const Op* suspect = nullptr;
  any_op(s.program, [&](const Op& op) {
    bool reads = op.kind == OpKind::read_file || op.kind == OpKind::open;  // a stat does not wait
    if (reads && op.error.empty() && unusual_kind(op.path)) suspect = &op;
    return suspect != nullptr;
  });
  if (suspect == nullptr) return line + ": an op waits on something that never comes";
  return line + ": " + suspect->where + ": " + op_name(suspect->kind) + " of " + suspect->path + ", " +
         unusual_kind(suspect->path) + ", waits on it as Node would (valid: a regular file)";
}

int run(const std::vector<std::string>& files, int runs, const ModelSettings& settings) {
  const NodeLineModel& model = node_line_model(settings.line);
  std::vector<Scenario> scenarios;
  double total_ms = 0;
  for (const auto& file : files) {  // all checked before any runs
    scenarios.push_back(load_scenario(file));
    total_ms += scenarios.back().min_run_ms * (runs > 0 ? runs : scenarios.back().runs);
  }
  if (total_ms > kCallLimitMs)
    throw ScenarioError(files.front() + ": the runs asked for take at least " + std::to_string(static_cast<int>(total_ms / 1000)) +
                        " s of timers and busy work together, over the limit of " +
                        std::to_string(static_cast<int>(kCallLimitMs / 1000)) + " s: ask for fewer runs");
  json out = {{"model", {{"line", model.line}, {"libuv", model.libuv}, {"semantics", model.describe()},
                         {"startup_tail_ms", settings.startup_tail_ms}}},
              {"scenarios", json::array()}};
  stallbench::tools::RunLimit limit;
  for (const auto& s : scenarios) {
    int n = runs > 0 ? runs : s.runs;
    double limit_ms = s.min_run_ms + kRunLimitMs;
    auto orders = run_scenario_times(s, settings, n, [&](int i) { limit.arm(limit_ms, timeout_line(s, i, n)); });
    limit.disarm();
    out["scenarios"].push_back({{"file", s.file}, {"name", s.name}, {"module", module_name(s.module)},
                                {"analysis", s.analysis}, {"seed", s.seed}, {"expect", s.expected_on(model.line)},
                                {"runs", n}, {"orders", orders_json(orders)}});
  }
  std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  return 0;
}

// "0.12,0.3" -> {0.12, 0.3}; each from 0 to 1000.
std::vector<double> milliseconds_list(const std::string& text) {
  std::vector<double> out;
  std::istringstream in(text);
  for (std::string word; std::getline(in, word, ',');) {
    std::size_t used = 0;
    double ms = -1;
    try {
      ms = std::stod(word, &used);
    } catch (const std::exception&) {
    }
    if (used != word.size() || !(ms >= 0 && ms <= 1000))
      throw std::invalid_argument("--startup-tail-ms: '" + word + "' is not a number of milliseconds from 0 to 1000");
    out.push_back(ms);
  }
  return out;
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
  ModelSettings settings;
  auto* run_cmd = app.add_subcommand("run", "run scenarios, print their orders as JSON");
  run_cmd->add_option("--runs", runs, "runs per scenario (default: the scenario's own `runs`)")->check(CLI::Range(1, 1000));
  run_cmd->add_option("--model-node", settings.line, "the Node line the runtime models (default: the newest)");
  std::string tails;
  run_cmd->add_option("--startup-tail-ms", tails, "Node's start-up tails in ms, comma-separated, one per run in turn");
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
    if (*run_cmd) {
      settings.startup_tail_ms = milliseconds_list(tails);
      return run(files, runs, settings);
    }
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
