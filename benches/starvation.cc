// Family `starvation`: what Node's queues let a callback do to the rest of the loop (seed 000,
// seed 002), on stallbench's runtime and on each Node line the run chose, in the same run
// (parameter `runtime`: stallbench, node@26, node@system ...), so they are compared side by side
// rather than across runs.
//
// reschedule     a callback that queues itself until it has run n times, through nextTick,
//                queueMicrotask, setImmediate or setTimeout 0, with a 1 ms timer and a file read
//                armed just before: how many calls ran before each got a turn, and what a call costs
// busy_timer     a timer armed, then synchronous work longer than its delay: it fires only after
// async_pbkdf2   an async function doing pbkdf2Sync calls while an interval should tick: it returns
//                its promise only when all the work is done, and the interval never ticks
// parity         the shipped ordering scenarios on each Node line and on the model of that line
// random_parity  random programs (workloads/loop/random_program.h) on each Node line and on the
//                model of that line: how many agree
#include <uv.h>

#include <openssl/crypto.h>

#include <memory>
#include <random>

#include "../workloads/common/summary.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/common/uv_clock.h"
#include "../workloads/common/node_process.h"
#include "../workloads/starvation/parity.h"
#include "../workloads/loop/runtime.h"
#include "../workloads/starvation/starvation_node.h"
#include "../workloads/loop/temporary_folder.h"
#include "harness/harness.h"
#include "harness/protocol.h"
#include "harness/runtime_param.h"

using namespace stallbench;
using namespace stallbench::bench;
using namespace stallbench::loop;

namespace {

// Node cells are one per Node line the orchestrator chose (runtime node@26, node@system); the
// model's cells model the newest line (node_line.h).
Param model_and_node_param() {
  return runtime_param({.values = {"stallbench", "node"}, .smoke = {"stallbench", "node"}},
                       "stallbench: the model on libuv; node: the same experiment under each chosen Node line (node@26 ...)");
}

// The cell's Node binary, or "" for the model.
std::string node_or_model(const Cell& cell) { return runs_in_node(cell) ? runtime_node_binary(cell) : ""; }

void require(bool ok, const std::string& problem) {
  if (!ok) throw std::runtime_error(problem);
}

Repetition make_reschedule(const Cell& cell) {
  auto file = std::make_shared<TempFile>(patterned_bytes(64 * 1024), "stallbench-starvation");
  Scheduler scheduler = parse_scheduler(cell.text("scheduler"));
  std::int64_t n = cell.integer("n");
  std::string node = node_or_model(cell);
  return [=](Counters& out) {
    RescheduleResult r = !node.empty() ? node_peer::run_reschedule(node, scheduler, n, file->path())
                              : run_reschedule(scheduler, n, file->path());
    require(r.error.empty(), "file read: " + r.error);
    require(r.calls == n, "the chain made " + std::to_string(r.calls) + " calls, not " + std::to_string(n));
    require(r.bytes_read == static_cast<std::int64_t>(file->bytes().size()), "the file read returned the wrong size");
    require(r.calls_before_timer >= 0 && r.calls_before_io >= 0, "the timer or the file read never ran");
    out.set("calls_before_timer", static_cast<double>(r.calls_before_timer));
    out.set("calls_before_io", static_cast<double>(r.calls_before_io));
    out.set("total_ms", r.total_ms);
    out.set("per_call_us", r.total_ms * 1000 / static_cast<double>(n));
    return r.total_ms;
  };
}

Benchmark reschedule() {
  return {
      .name = "reschedule",
      .doc = "a callback reschedules itself n times (nextTick, microtask, setImmediate, setTimeout 0) with a 1 ms "
             "timer and a file read armed first: how long each waits, what a call costs",
      .params =
          {
              {.name = "scheduler", .values = scheduler_names(), .smoke = {"nexttick", "immediate"},
               .choices = scheduler_names(),
               .doc = "how the callback queues its next call"},
              {.name = "n", .values = {"1000", "10000", "100000"}, .smoke = {"1000"},
               .full = {"1000", "10000", "100000", "1000000"}, .range = {{1, 10'000'000}},
               .doc = "calls in the chain (timeout: at most 1000, each call waits for a 1 ms timer)"},
              model_and_node_param(),
          },
      .metrics =
          {
              {.name = "calls_before_timer", .unit = "count", .doc = "calls made when the 1 ms timer ran (n: starved)"},
              {.name = "calls_before_io", .unit = "count", .doc = "calls made when the file read's callback ran"},
              {.name = "total_ms", .unit = "ms", .doc = "from queuing the first call to the end of the last"},
              {.name = "per_call_us", .unit = "us", .doc = "total_ms / n: the cost of one call (one loop iteration for immediate)"},
          },
      .timeout_s = 120,
      .make = make_reschedule,
      // A setTimeout chain takes at least 1 ms per call and is linear in n: 10,000 calls would take
      // over 10 s per repetition and show nothing 1,000 do not.
      .valid = [](const Cell& cell) {
        return !(cell.text("scheduler") == "timeout" && cell.integer("n") > 1'000);
      },
  };
}

Repetition make_busy_timer(const Cell& cell) {
  double busy_ms = static_cast<double>(cell.integer("busy_ms"));
  double timer_ms = static_cast<double>(cell.integer("timer_ms"));
  std::string node = node_or_model(cell);
  return [=](Counters& out) {
    BusyTimerResult r = !node.empty() ? node_peer::run_busy_timer(node, busy_ms, timer_ms) : run_busy_timer(busy_ms, timer_ms);
    require(r.timer_fired_ms >= 0, "the timer never ran");
    require(r.timer_fired_ms >= r.busy_done_ms, "the timer ran during the synchronous work");
    out.set("timer_fired_ms", r.timer_fired_ms);
    out.set("timer_late_ms", r.timer_fired_ms - timer_ms);
    return r.timer_fired_ms;
  };
}

Benchmark busy_timer() {
  return {
      .name = "busy_timer",
      .doc = "seed 002: a timer armed, then synchronous work longer than its delay; it fires only after the work",
      .params =
          {
              {.name = "busy_ms", .values = {"500"}, .smoke = {"50"}, .full = {"100", "500", "2000"},
               .range = {{1, 10'000}}, .doc = "synchronous work after arming the timer (seed: 500)"},
              {.name = "timer_ms", .values = {"50"}, .smoke = {"5"}, .range = {{1, 10'000}},
               .doc = "the timer's delay (seed: 50); must be below busy_ms"},
              model_and_node_param(),
          },
      .metrics =
          {
              {.name = "timer_fired_ms", .unit = "ms", .doc = "when the timer ran, since it was armed"},
              {.name = "timer_late_ms", .unit = "ms", .doc = "timer_fired_ms - timer_ms: about busy_ms - timer_ms"},
          },
      .timeout_s = 60,
      .make = make_busy_timer,
      .valid = [](const Cell& cell) {
        return cell.integer("timer_ms") < cell.integer("busy_ms");
      },
  };
}

Repetition make_async_pbkdf2(const Cell& cell) {
  int calls = static_cast<int>(cell.integer("calls"));
  int iterations = static_cast<int>(cell.integer("pbkdf2_iters"));
  double interval_ms = static_cast<double>(cell.integer("interval_ms"));
  std::string expected_key = to_hex(pbkdf2(async_pbkdf2_params(calls - 1, iterations)));
  std::string node = node_or_model(cell);
  return [=](Counters& out) {
    AsyncHashResult r = !node.empty() ? node_peer::run_async_pbkdf2(node, calls, iterations, interval_ms)
                             : run_async_pbkdf2(calls, iterations, interval_ms);
    require(r.last_key_hex == expected_key, "the last key is " + r.last_key_hex + ", expected " + expected_key);
    require(r.ticks_before_resume >= r.ticks_before_return, "the awaiting code never resumed");
    out.set("returned_ms", r.returned_ms);
    out.set("interval_ticks", r.ticks_before_resume);
    out.set("ticks_expected", static_cast<double>(static_cast<int>(r.returned_ms / interval_ms)));
    return r.returned_ms;
  };
}

Benchmark async_pbkdf2() {
  return {
      .name = "async_pbkdf2",
      .doc = "seed 000: an async function running pbkdf2Sync calls while an interval should tick; it returns its "
             "promise only after all the work, and the interval never ticks",
      .params =
          {
              {.name = "calls", .values = {"10"}, .range = {{1, 100}}, .doc = "pbkdf2Sync calls in the function (seed: 10)"},
              {.name = "pbkdf2_iters", .values = {"600000"}, .smoke = {"20000"}, .full = {"100000", "600000"},
               .range = {{1, 10'000'000}}, .doc = "pbkdf2 iterations per call, sha256 (seed: 600,000)"},
              {.name = "interval_ms", .values = {"10"}, .range = {{1, 1000}}, .doc = "the interval's period (seed: 10)"},
              model_and_node_param(),
          },
      .metrics =
          {
              {.name = "returned_ms", .unit = "ms", .doc = "when the async function returned its promise (seed: 421)"},
              {.name = "interval_ticks", .unit = "count", .doc = "ticks before the awaiting code resumed and cleared it (seed: 0)"},
              {.name = "ticks_expected", .unit = "count", .tracked = false,
               .doc = "returned_ms / interval_ms: the ticks a free loop would have made meanwhile"},
          },
      .timeout_s = 120,
      .make = make_async_pbkdf2,
  };
}

// One Node line beside the model of that line on the shipped scenarios: the races only (their
// odds), or every scenario (the parity matrix of the nightly report). The odds of a race come from
// many runs, so a repetition runs each race `race_runs` times on both sides.
// The parity benchmarks' cells are one per chosen Node line, each beside the model of that line.
Param compared_line_param() {
  return runtime_param({.values = {"node"}}, "the Node line compared (node_line 26 ...), one cell per chosen line");
}

// The line the model stands for beside the cell's Node (`system`: that binary's major version).
int model_line_of(const Cell& cell, const std::string& node) {
  const std::string& given = cell.text(std::string(kNodeLineParam));
  return modelled_line_of(given == "system" ? node_versions(node).node : "v" + given);
}

Repetition make_parity(const Cell& cell) {
  std::string node = runtime_node_binary(cell);
  int line = model_line_of(cell, node);
  int race_runs = static_cast<int>(cell.integer("race_runs"));
  auto scenarios = std::make_shared<std::vector<Scenario>>();
  for (auto& s : shipped_scenarios())
    if (cell.text("scenarios") == "all" || s.expected_on(line).size() > 1) scenarios->push_back(std::move(s));
  auto folder = std::make_shared<TemporaryFolder>();
  return [=](Counters& out) {
    auto start = uv_hrtime();
    std::vector<double> tails = node_startup_tails(node, std::max(race_runs, 5));
    out.set("startup_tail_ms", summarize(tails).p50);
    for (const auto& s : *scenarios) {
      int runs = s.expected_on(line).size() > 1 ? race_runs : s.runs;
      ScenarioParity p = scenario_parity(s, node, line, tails, runs, folder->path().string());
      Subcase scenario = {{"scenario", s.name}};
      out.set("model_expected_pct", scenario, p.model_expected_pct);
      out.set("node_expected_pct", scenario, p.node_expected_pct);
      out.set("model_first_pct", scenario, p.model_first_pct);
      out.set("node_first_pct", scenario, p.node_first_pct);
      out.set("expected_orders", scenario, static_cast<double>(s.expected_on(line).size()));
    }
    return ms_since(start);
  };
}

Benchmark parity() {
  return {
      .name = "parity",
      .doc = "the shipped ordering scenarios on each chosen Node line and on the model of that line, after the model "
             "was given that Node's measured start-up tail: runs in an expected order on each side, and a race's odds",
      .params =
          {
              compared_line_param(),
              {.name = "scenarios", .values = {"races"}, .full = {"all"}, .nightly = {"all"}, .choices = {"races", "all"},
               .doc = "races: the racy scenarios (their odds); all: every shipped scenario (the parity matrix)"},
              // Nightly runs every scenario on every line, 9 repetitions: fewer race runs each there.
              {.name = "race_runs", .values = {"10"}, .smoke = {"3"}, .nightly = {"5"}, .range = {{1, 1000}},
               .doc = "runs of each race per repetition on each side (also Node start-up tails measured)"},
          },
      .metrics =
          {
              {.name = "model_expected_pct", .unit = "%", .better = Better::higher,
               .doc = "per scenario: the model's runs in an order the scenario expects on that line"},
              {.name = "node_expected_pct", .unit = "%", .better = Better::higher,
               .doc = "per scenario: Node's runs in an order the scenario expects on that line"},
              {.name = "model_first_pct", .unit = "%", .tracked = false,
               .doc = "per scenario: the model's runs in its first expected order (a race's odds)"},
              {.name = "node_first_pct", .unit = "%", .tracked = false,
               .doc = "per scenario: Node's runs in its first expected order (a race's odds)"},
              {.name = "expected_orders", .unit = "count", .tracked = false,
               .doc = "per scenario: the orders it allows on that line (more than one: a race)"},
              {.name = "startup_tail_ms", .unit = "ms", .tracked = false,
               .doc = "Node's start-up tail (median of the repetition's probes), spent by the model before its loop"},
          },
      .timeout_s = 900,
      .make = make_parity,
  };
}

// A fresh series per repetition unless one is given: each repetition (each round of the nightly
// profile runs in a process of its own) then tries programs no earlier one did. The series is a
// row, so any program can be run again (`stallbench trace --random 1 --seed S --first I`).
std::uint64_t series_of(const std::string& value) {
  if (value != "fresh") return std::stoull(value);
  return std::random_device{}() % 1'000'000'000;
}

Repetition make_random_parity(const Cell& cell) {
  std::string node = runtime_node_binary(cell);
  int line = model_line_of(cell, node);
  auto programs = static_cast<std::uint64_t>(cell.integer("programs"));
  std::string series = cell.text("series");
  return [=](Counters& out) {
    auto start = uv_hrtime();
    std::uint64_t seed = series_of(series);
    TemporaryFolder folder;
    std::vector<double> tails = node_startup_tails(node, 5);  // the model of a line always spends its tail
    std::vector<double> disagreeing;
    for (std::uint64_t i = 0; i < programs; ++i)
      if (!random_program_agrees(seed, i, node, line, tails, folder.path().string())) disagreeing.push_back(static_cast<double>(i));
    out.set("programs", static_cast<double>(programs));
    out.set("agreeing_programs", static_cast<double>(programs - disagreeing.size()));
    out.set("agree_pct", 100.0 * static_cast<double>(programs - disagreeing.size()) / static_cast<double>(programs));
    out.set("series", static_cast<double>(seed));
    out.series("disagreeing_program", disagreeing);
    return ms_since(start);
  };
}

Benchmark random_parity() {
  return {
      .name = "random_parity",
      .doc = "random programs from the generator (deterministic ones, no expected order) on each chosen Node line "
             "and on the model of that line, once each: how many gave the same order",
      .params =
          {
              compared_line_param(),
              {.name = "programs", .values = {"5"}, .smoke = {"2"}, .full = {"20"}, .nightly = {"8"}, .range = {{1, 1000}},
               .doc = "programs per repetition (each ~0.3 s of Node and as long of the model)"},
              {.name = "series", .values = {"fresh"}, .smoke = {"24"},
               .doc = "fresh: a new series of programs every repetition; or a number: that series every time",
               .check = [](const std::string& value) -> std::string {
                 bool number = !value.empty() && value.size() <= 9 &&
                               value.find_first_not_of("0123456789") == std::string::npos;
                 return value == "fresh" || number ? "" : "must be fresh or a series number from 0 to 999999999";
               }},
          },
      .metrics =
          {
              {.name = "agree_pct", .unit = "%", .better = Better::higher,
               .doc = "programs on which the model of that line and that Node line gave the same order"},
              {.name = "programs", .unit = "count", .tracked = false, .doc = "programs run"},
              {.name = "agreeing_programs", .unit = "count", .better = Better::higher, .tracked = false,
               .doc = "of them, those that agreed"},
              {.name = "series", .unit = "id", .tracked = false,
               .doc = "the series the programs came from (program I: trace --random 1 --seed SERIES --first I)"},
              {.name = "disagreeing_program", .unit = "index", .tracked = false,
               .doc = "the index in the series of each program that disagreed (none: no row)"},
          },
      .timeout_s = 900,
      .make = make_random_parity,
  };
}

// Every Node line stallbench knows (node_line.h), one row each: what the pins file and the docs
// table are generated from and checked against (tests/python/test_node_line_table.py).
Table node_lines_table() {
  Table table{.name = "node_lines",
              .doc = "every Node line: the pinned npm release, the libuv it bundles, what the model does on it"};
  for (int line : modelled_lines()) {
    const NodeLineModel& model = node_line_model(line);
    std::map<std::string, TableField> row = {
        {"line", std::to_string(line)}, {"release", model.release}, {"libuv", model.libuv}};
    for (const auto& [aspect, sentence] : model.semantics()) row[aspect] = sentence;
    table.rows.push_back(std::move(row));
  }
  return table;
}

// What meta.json records: the libuv the model drives and the line it models. Node's versions are
// the orchestrator's (meta.json "nodes").
std::vector<std::pair<std::string, std::string>> versions() {
  const NodeLineModel& model = node_line_model(newest_modelled_line());
  std::string semantics;
  for (const auto& line : model.describe()) semantics += (semantics.empty() ? "" : "; ") + line;
  return {
      {"libuv", uv_version_string()},
      {"loop-model", "Node " + std::to_string(model.line) + " (libuv " + model.libuv + "): " + semantics},
      {"openssl", OpenSSL_version(OPENSSL_VERSION)},
  };
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv,
                  {.name = "starvation",
                   .doc = "Node's queues and the starvation they allow, on stallbench's runtime and on Node",
                   .benchmarks = {reschedule(), busy_timer(), async_pbkdf2(), parity(), random_parity()},
                   .tables = {node_lines_table()},
                   .versions = versions()});
}
