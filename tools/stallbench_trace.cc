// stallbench_trace: runs ordering scenarios on the runtime; what `scripts/stallbench trace` calls.
//
//   stallbench_trace run [--runs N] [--model-node LINE] [--startup-tail-ms MS,...|unknown] FILE...
//                        every file checked first, then each run N times (by default its own
//                        `runs`) on the model of Node LINE (default: the newest modelled line),
//                        spending the given start-up tails in turn; JSON on stdout (contract/
//                        protocol.schema.json, trace_run, with its "protocol"): the model's
//                        line and semantics, each scenario's distinct orders with how many runs
//                        gave each, the orders it expects on that line and whether the tail can
//                        change its order (`startup_race`). With `unknown`, a scenario it can
//                        change runs with no tail and with kLongTail, kPossibleRuns times in turn:
//                        the orders it can take, not their odds (`odds_modelled`: false); so does
//                        one that throws on a line where the queues a handled throw leaves drain
//                        at one of two points from run to run (Node 26), taking both in turn. A run that
//                        fails is that scenario's `error` (one line naming it and the op), with no
//                        orders; the other scenarios still run
//   stallbench_trace startup-race [--runs N] FILE...     per modelled line, whether the start-up tail
//                        can change the order of any of the files: {"protocol": 2, "lines": {"18": true, ...}};
//                        the files are checked as `run` checks them, the time limit included
//   stallbench_trace javascript FILE          the scenario as a Node program
//   stallbench_trace timer-phase VERSION      where libuv VERSION (e.g. 1.46.0) runs timers
//   stallbench_trace random --seed S [--first I] --count N --out DIR
//                        writes random programs I .. I+N-1 of series S (random_program.h) into the
//                        folder DIR as random-S-I.json, and prints their paths, one per line
//   stallbench_trace timer-pass --seed S [--first I] --count N --out DIR
//                        the same for programs of timers due in one pass with clears between them
//                        (timer_pass_program.h), as timer-pass-S-I.json
//
// Bad input (a malformed scenario, an unknown op, a bad delay, a missing file, more runs than
// the time limit allows): one line on stderr naming the file and the JSON path, exit 2, before
// anything runs. A run still going kRunLimitMs after what its timers and busy work take (an op
// waiting on something that never comes: a FIFO nobody writes): one line naming the run and the
// op it likely waits on, exit 3 (run_limit.h).
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/run_limit.h"
#include "workloads/loop/random_program.h"
#include "workloads/loop/scenario.h"
#include "workloads/loop/timer_pass_program.h"

using namespace stallbench::loop;
using nlohmann::json;

namespace {

// All the runs of one call together: the caller's time limit is a few times this.
constexpr double kCallLimitMs = 600'000;
// A start-up tail longer than any measured here (Node 18: 1-6 ms on a loaded machine; the other
// lines under 1 ms, a few ms at times): with none and this one, a race from the main module shows
// both the orders it can take.
constexpr double kLongTailMs = 10;
// The model itself runs in real time: a machine that stalls it for a millisecond before its loop
// starts makes even a no-tail run look like one with a tail. Several tries of each let the orders
// it can take show on a busy machine too (a no-tail run is a few milliseconds).
constexpr int kPossibleRuns = 10;

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

// Every file loaded, and refused when `runs` runs of each (0: each its own `runs`) would take
// longer than the call's limit in timers and busy work alone.
std::vector<Scenario> load_within_limit(const std::vector<std::string>& files, int runs) {
  std::vector<Scenario> scenarios;
  double total_ms = 0;
  for (const auto& file : files) {
    scenarios.push_back(load_scenario(file));
    total_ms += scenarios.back().min_run_ms * (runs > 0 ? runs : scenarios.back().runs);
  }
  if (total_ms > kCallLimitMs)
    throw ScenarioError(files.front() + ": the runs asked for take at least " + std::to_string(static_cast<int>(total_ms / 1000)) +
                        " s of timers and busy work together, over the limit of " +
                        std::to_string(static_cast<int>(kCallLimitMs / 1000)) + " s: ask for fewer runs");
  return scenarios;
}

int run(const std::vector<std::string>& files, int runs, const ModelSettings& settings, bool tail_unknown) {
  const NodeLineModel& model = node_line_model(settings.line);
  std::vector<Scenario> scenarios = load_within_limit(files, runs);  // all checked before any runs
  json out = {{"protocol", STALLBENCH_PROTOCOL},
              {"model", {{"line", model.line}, {"libuv", model.libuv}, {"semantics", model.describe()},
                         {"startup_tail_ms", settings.startup_tail_ms}}},
              {"scenarios", json::array()}};
  stallbench::tools::RunLimit limit;
  for (const auto& s : scenarios) {
    bool race = starts_before_loop(s, model);
    bool throws = throw_race(s, model);
    bool odds = !(tail_unknown && race) && !throws;
    ModelSettings these = settings;
    if (tail_unknown && race) these.startup_tail_ms = {0, kLongTailMs};
    if (throws) these.thrown_queues = kThrowRaceBranches;
    int n = !odds ? kPossibleRuns : runs > 0 ? runs : s.runs;
    double limit_ms = s.min_run_ms + kRunLimitMs;
    // A run that fails (whatever it throws) is this scenario's result, and the others still run.
    std::vector<OrderCount> orders;
    std::string error;
    try {
      orders = run_scenario_times(s, these, n, [&](int i) { limit.arm(limit_ms, timeout_line(s, i, n)); });
    } catch (const std::exception& e) {
      error = e.what();
    }
    limit.disarm();
    out["scenarios"].push_back({{"file", s.file}, {"name", s.name}, {"module", module_name(s.module)},
                                {"analysis", s.analysis}, {"seed", s.seed}, {"expect", s.expected_on(model.line)},
                                {"runs", n}, {"orders", orders_json(orders)}, {"startup_race", race},
                                {"tail_unknown", tail_unknown && race}, {"throw_race", throws}, {"odds_modelled", odds}, {"error", error}});
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

int startup_race(const std::vector<std::string>& files, int runs) {
  std::vector<Scenario> scenarios = load_within_limit(files, runs);
  json lines = json::object();
  for (int line : modelled_lines()) {
    const NodeLineModel& model = node_line_model(line);
    lines[std::to_string(line)] = std::any_of(scenarios.begin(), scenarios.end(),
                                              [&](const Scenario& s) { return starts_before_loop(s, model); });
  }
  std::cout << json{{"protocol", STALLBENCH_PROTOCOL}, {"lines", lines}}.dump() << "\n";
  return 0;
}

struct RandomSeries {
  std::uint64_t seed = 0;
  std::uint64_t first = 0;
  int count = 0;
  std::string out;
};

// Programs first .. first+count-1 of a series, each written by `write` (which returns its path).
int write_series(const char* command, const RandomSeries& series,
                 const std::function<std::string(std::uint64_t seed, std::uint64_t index)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(series.out, ec))
    throw std::invalid_argument(std::string(command) + ": --out " + series.out + ": not a folder");
  for (std::uint64_t i = series.first; i < series.first + static_cast<std::uint64_t>(series.count); ++i)
    std::cout << write(series.seed, i) << "\n";
  return 0;
}

std::string write_timer_pass(std::uint64_t seed, std::uint64_t index, const std::string& folder) {
  json program = timer_pass_program(seed, index);
  std::string path = (std::filesystem::path(folder) / (program.at("name").get<std::string>() + ".json")).string();
  std::ofstream out(path);
  out << program.dump(2) << "\n";
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
  return path;
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
  run_cmd->add_option("--startup-tail-ms", tails,
                      "Node's start-up tails in ms, comma-separated, one per run in turn; `unknown`: not measured");
  run_cmd->add_option("files", files, "scenario files")->required();
  auto* race_cmd = app.add_subcommand("startup-race", "per modelled line, whether Node's start-up tail can change an order");
  race_cmd->add_option("--runs", runs, "runs per scenario, checked against the time limit as `run` checks them")
      ->check(CLI::Range(1, 1000));
  race_cmd->add_option("files", files, "scenario files")->required();
  auto* js_cmd = app.add_subcommand("javascript", "print a scenario as a Node program");
  js_cmd->add_option("file", file, "scenario file")->required();
  auto* phase_cmd = app.add_subcommand("timer-phase", "where a libuv version runs timers");
  phase_cmd->add_option("version", version, "e.g. 1.46.0")->required();
  RandomSeries series;
  auto series_options = [&](CLI::App* cmd) {
    cmd->add_option("--seed", series.seed, "the series")->required();
    cmd->add_option("--first", series.first, "the first program's index (default 0)");
    cmd->add_option("--count", series.count, "how many programs, 1-1000")->required()->check(CLI::Range(1, 1000));
    cmd->add_option("--out", series.out, "an existing folder")->required();
  };
  auto* random_cmd = app.add_subcommand("random", "write random programs (scenario files) into a folder");
  series_options(random_cmd);
  auto* pass_cmd = app.add_subcommand("timer-pass", "write programs of timers due in one pass, with clears, into a folder");
  series_options(pass_cmd);
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
      bool unknown = tails == "unknown";
      if (!unknown) settings.startup_tail_ms = milliseconds_list(tails);
      return run(files, runs, settings, unknown);
    }
    if (*race_cmd) return startup_race(files, runs);
    if (*js_cmd) {
      std::cout << to_javascript(load_scenario(file));
      return 0;
    }
    if (*random_cmd)
      return write_series("random", series, [&](std::uint64_t seed, std::uint64_t i) { return write_random_program(seed, i, series.out); });
    if (*pass_cmd)
      return write_series("timer-pass", series, [&](std::uint64_t seed, std::uint64_t i) { return write_timer_pass(seed, i, series.out); });
    return timer_phase_of(version);
  } catch (const std::invalid_argument& e) {  // ScenarioError among them: bad input
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stallbench_trace: " << e.what() << "\n";
    return 1;
  }
}
