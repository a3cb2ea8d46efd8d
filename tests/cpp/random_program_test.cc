// The random program generator (workloads/loop/random_program.h): one document per series and index
// on every machine; each a valid scenario; one order per program on the model of every line (its
// programs are meant to be deterministic, so the model must not see a race in them either); timers
// only at whole slots or as short continuations; and over a few hundred programs, every op it is
// meant to draw. Whether Node agrees is tests/python/test_trace_random.py's (and nightly's).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <string>

#include "workloads/loop/random_generator.h"  // kBurstBusyMs: the length that marks a burst
#include "workloads/loop/random_program.h"
#include "workloads/loop/scenario.h"
#include "workloads/loop/temporary_folder.h"

using namespace stallbench::loop;
using nlohmann::json;

namespace {

// A hand-written scenario of one CommonJS module, loaded as `trace` loads a file.
Scenario write_scenario(const TemporaryFolder& folder, const std::string& name, const json& program) {
  std::string path = (folder.path() / (name + ".json")).string();
  std::ofstream(path) << json{{"name", name}, {"analysis", "a stall measured"}, {"module", "cjs"}, {"program", program}};
  return load_scenario(path);
}

// Calls f on every op of a program document, at any depth (`then`, `next`, `on`, `of`); a `next` (a
// chained .then) has no `op` of its own.
void each_op(const json& ops, const std::function<void(const json&)>& f) {
  for (const auto& op : ops) {
    f(op);
    for (const char* field : {"then", "of"})
      if (op.contains(field)) each_op(op[field], f);
    for (const char* field : {"on", "next"})
      if (op.contains(field)) each_op(json::array({op[field]}), f);
  }
}

bool is_microtask(const std::string& op) {
  return op == "nextTick" || op == "queueMicrotask" || op == "promise" || op == "reject";
}

bool is_awaiting(const std::string& op) { return op == "await" || op == "promiseAll" || op == "promiseRace"; }

// What one timer callback does in its own timers phase: whether it queues an immediate or a close,
// and whether its drain (the microtasks and ticks it queues, and what they queue) arms a burst (a
// list that ends with the burst's kBurstBusyMs of work: no other busy op is that long).
struct TimersPhase {
  bool fast = false;
  bool burst_in_drain = false;

  void walk(const json& ops, bool drain) {
    for (const auto& op : ops) {
      std::string kind = op.value("op", "");
      if (kind == "busy" && op.at("ms") == random_draw::kBurstBusyMs && drain) burst_in_drain = true;
      if (kind == "setImmediate" || kind == "socketClose") fast = true;
      if (is_microtask(kind)) {
        if (op.contains("then")) walk(op["then"], true);
        if (op.contains("next") && op["next"].contains("then")) walk(op["next"]["then"], true);
      } else if (is_awaiting(kind)) {
        json awaited = op.contains("on") ? json::array({op["on"]}) : op.value("of", json::array());
        bool after_the_loop = false;
        for (const auto& child : awaited) {
          std::string child_kind = child.value("op", "");
          if (is_microtask(child_kind)) walk(json::array({child}), true);
          else after_the_loop = true, walk(json::array({child}), drain);
        }
        if (op.contains("then") && !after_the_loop) walk(op["then"], true);
      }
    }
  }
};

}  // namespace

TEST(RandomPrograms, NoFanOutTimerCallbackArmsABurstInItsDrain) {
  // On Node 18 and 20 such a burst runs before the immediate or after it depending on whether
  // libuv's millisecond ticked between two setTimeout calls (random_generator.h, Phase).
  int checked = 0;
  for (std::uint64_t seed : {4040, 24}) {
    for (std::uint64_t index = 0; index < 300; ++index) {
      each_op(random_program(seed, index).at("program"), [&](const json& op) {
        std::string kind = op.value("op", "");
        if ((kind != "setTimeout" && kind != "setInterval") || op.at("ms") < kRandomSlotMs || !op.contains("then")) return;
        TimersPhase phase;
        phase.walk(op["then"], false);
        ++checked;
        EXPECT_FALSE(phase.fast && phase.burst_in_drain) << "random-" << seed << "-" << index << ": " << op.at("log");
      });
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(RandomPrograms, OneDocumentPerSeriesAndIndex) {
  EXPECT_EQ(random_program(7, 3), random_program(7, 3));
  EXPECT_NE(random_program(7, 3), random_program(7, 4));
  EXPECT_NE(random_program(7, 3), random_program(8, 3));
  EXPECT_EQ(random_program(7, 3).at("name"), "random-7-3");
  EXPECT_FALSE(random_program(7, 3).contains("expect"));  // Node's order is the answer
}

TEST(RandomPrograms, EachIsAScenarioWithOneOrderOnTheModelOfEveryLine) {
  // The slots decide the order only while nothing holds the loop or the pool up for a good part of
  // one: a pair of runs where the machine did (a 100 ms stall in a timers pass let the next slot's
  // timer run before a close, at load 10) says nothing about the program, and is left out.
  TemporaryFolder folder;
  int judged = 0, stalled = 0;
  for (std::uint64_t index = 0; index < 6; ++index) {
    Scenario s = load_scenario(write_random_program(24, index, folder.path().string()));  // throws when invalid
    for (int line : modelled_lines()) {
      ScenarioRun first = run_scenario_measured(s, {.line = line});
      EXPECT_FALSE(first.order.empty()) << s.name << " on Node " << line;
      ScenarioRun second = run_scenario_measured(s, {.line = line});
      if (std::max(first.longest_stall_ms, second.longest_stall_ms) >= kRandomSlotMs / 2.0) {
        ++stalled;
        continue;
      }
      ++judged;
      EXPECT_EQ(second.order, first.order) << s.name << " gave two orders on the model of Node " << line;
    }
  }
  if (stalled > 0) std::cout << stalled << " of " << stalled + judged << " pairs of runs left out: the machine held "
                             << "the loop or the pool up for half a slot or more (noisy machine)\n";
  if (judged == 0) GTEST_SKIP() << "every pair of runs was held up by the machine: nothing to judge";
}

TEST(RandomPrograms, AStallIsMeasuredWhereTheLoopWasHeldUp) {
  // The measure the test above rests on: a busy callback of 60 ms is a stall of 60 ms or more, and
  // a program's wait in poll is not: one that only waits 400 ms for its timer is held up less than
  // its wait (only by how late a busy machine wakes it, which the next test counts).
  TemporaryFolder folder;
  Scenario busy = write_scenario(folder, "busy", json::array({{{"op", "setTimeout"}, {"ms", 1}, {"log", "t"},
                                               {"then", json::array({{{"op", "busy"}, {"ms", 60}, {"log", "b"}}})}}}));
  constexpr int kWaitMs = 400;
  Scenario waits = write_scenario(folder, "waits", json::array({{{"op", "setTimeout"}, {"ms", kWaitMs}, {"log", "w"}}}));
  ScenarioRun held = run_scenario_measured(busy);
  ScenarioRun idle = run_scenario_measured(waits);
  EXPECT_EQ(held.order, (Order{"t", "b"}));
  EXPECT_EQ(idle.order, Order{"w"});
  EXPECT_GE(held.longest_stall_ms, 60.0);  // a busy wait lasts at least its time, however busy the machine
  EXPECT_LT(idle.longest_stall_ms, kWaitMs);  // were the wait counted, it would be 400 ms or more
}

TEST(RandomPrograms, AProcessWokenLateForItsTimerIsAStall) {
  // No callback is busy here: the process is stopped while poll waits for its timer (as a machine
  // that gives it no core does), so the timer runs late and the measure must say so. The stop
  // (SIGSTOP from a child) lasts 500 ms from about 100 ms in, long after the timer is armed; the
  // timer is due at 400 ms.
  TemporaryFolder folder;
  Scenario late = write_scenario(folder, "late", json::array({{{"op", "setTimeout"}, {"ms", 400}, {"log", "w"}}}));
  ScenarioRun on_time = run_scenario_measured(late);
  pid_t parent = getpid(), child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // only async-signal-safe calls in the child of a process with threads
    timespec start{0, 100'000'000}, stopped{0, 500'000'000};
    nanosleep(&start, nullptr);
    kill(parent, SIGSTOP);
    nanosleep(&stopped, nullptr);
    kill(parent, SIGCONT);
    _exit(0);
  }
  ScenarioRun woken_late = run_scenario_measured(late);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_EQ(woken_late.order, Order{"w"});
  EXPECT_GE(woken_late.longest_stall_ms, kRandomSlotMs / 2.0);  // at least 200 ms late by construction
  EXPECT_LT(on_time.longest_stall_ms, woken_late.longest_stall_ms);
}

TEST(RandomPrograms, TimersAreWholeSlotsOrShortContinuations) {
  for (std::uint64_t index = 0; index < 300; ++index) {
    each_op(random_program(1, index).at("program"), [&](const json& op) {
      std::string kind = op.value("op", "");
      if (kind != "setTimeout" && kind != "setInterval") return;
      int ms = op.at("ms");
      // A burst's timers (due in one pass) are of at most 3 ms, its intervals tick once.
      EXPECT_TRUE(ms <= 3 || ms % kRandomSlotMs == 0) << "random-1-" << index << ": a timer of " << ms << " ms";
      EXPECT_TRUE(ms > 3 || kind == "setTimeout" || op.at("count") == 1) << "random-1-" << index << ": an interval of " << ms << " ms";
    });
  }
}

TEST(RandomPrograms, DrawEveryOpTheyAreMeantTo) {
  std::set<std::string> ops, modules;
  bool top_level_await = false;
  for (std::uint64_t index = 0; index < 300; ++index) {
    json program = random_program(2, index);
    modules.insert(program.at("module"));
    each_op(program.at("program"), [&](const json& op) {
      ops.insert(op.value("op", "promise"));
      top_level_await = top_level_await || op.value("toplevel", false);
    });
  }
  for (const char* op : {"log", "busy", "nextTick", "queueMicrotask", "promise", "await", "reject", "promiseAll",
                         "promiseRace", "setTimeout", "setInterval", "setImmediate", "socketClose", "readFile", "stat",
                         "open", "close", "writeFile", "clearTimeout", "clearInterval", "clearImmediate", "beforeExit"})
    EXPECT_TRUE(ops.count(op)) << op << " never drawn in 300 programs";
  EXPECT_FALSE(ops.count("lookup")) << "a lookup takes as long as a slot here: its callback would race the next timer";
  EXPECT_EQ(modules, (std::set<std::string>{"cjs", "esm"}));
  EXPECT_TRUE(top_level_await);
}
