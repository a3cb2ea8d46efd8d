// The runtime's scheduling semantics, written as a C++ user of it would: every deterministic
// ordering the seeds publish, asserted exactly, plus the rules behind them (queues drained after
// every callback and between timers and immediates, immediates queued in the check phase wait,
// Node's delay rule and timer lists, failures reported).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "workloads/common/temp_file.h"
#include "workloads/loop/busy_wait.h"
#include "workloads/loop/runtime.h"

using namespace stallbench;
using namespace stallbench::loop;
using Order = std::vector<std::string>;

namespace {

struct Trace {
  Runtime runtime;
  Order order;
  Callback log(std::string label) {
    return [this, label] { order.push_back(label); };
  }
};

}  // namespace

TEST(LoopOrder, InsideAnIoCallback) {  // seed 000, guess.ts
  TempFile file(patterned_bytes(128));
  Trace t;
  t.runtime.run_main(ModuleKind::esm, [&] {
    t.runtime.read_file(file.path(), [&](std::string bytes, std::string error) {
      ASSERT_EQ(error, "");
      ASSERT_EQ(bytes, file.bytes());
      t.runtime.set_timeout(t.log("setTimeout 0"), 0);
      t.runtime.set_immediate(t.log("setImmediate"));
      t.runtime.queue_microtask(t.log("promise.then"));
      t.runtime.next_tick(t.log("process.nextTick"));
      t.order.push_back("readFile callback");
    });
  });
  EXPECT_EQ(t.order, (Order{"readFile callback", "process.nextTick", "promise.then", "setImmediate", "setTimeout 0"}));
}

TEST(LoopOrder, CommonJsRunsTicksBeforePromises) {  // seed 002, event-loop-urutan.js
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.order.push_back("sync start");
    t.runtime.queue_microtask(t.log("promise.then"));
    t.runtime.next_tick(t.log("nextTick"));
    t.order.push_back("sync end");
  });
  EXPECT_EQ(t.order, (Order{"sync start", "sync end", "nextTick", "promise.then"}));
}

TEST(LoopOrder, EsModuleRunsPromisesBeforeTicks) {  // seed 000, tick-vs-promise.mjs
  Trace t;
  t.runtime.run_main(ModuleKind::esm, [&] {
    t.runtime.queue_microtask(t.log("promise.then"));
    t.runtime.next_tick(t.log("process.nextTick"));
  });
  EXPECT_EQ(t.order, (Order{"promise.then", "process.nextTick"}));
}

TEST(LoopOrder, SyncThenMicrotasksThenTimer) {  // seed 003: 1, 5, 3, 4, 2
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.order.push_back("1");
    t.runtime.set_timeout(t.log("2"), 0);
    t.runtime.queue_microtask(t.log("3"));
    t.runtime.queue_microtask(t.log("4"));
    t.order.push_back("5");
  });
  EXPECT_EQ(t.order, (Order{"1", "5", "3", "4", "2"}));
}

TEST(LoopOrder, MicrotasksDrainBetweenTimers) {  // seed 003: start, end, then 1, then 2, timeout 1, ...
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.order.push_back("start");
    t.runtime.set_timeout([&] {
      t.order.push_back("timeout 1");
      t.runtime.queue_microtask(t.log("micro in timeout"));
    }, 0);
    t.runtime.set_timeout(t.log("timeout 2"), 0);
    t.runtime.queue_microtask([&] {
      t.order.push_back("then 1");
      t.runtime.queue_microtask(t.log("then 2"));
    });
    t.order.push_back("end");
  });
  EXPECT_EQ(t.order, (Order{"start", "end", "then 1", "then 2", "timeout 1", "micro in timeout", "timeout 2"}));
}

TEST(LoopOrder, AwaitResumesInAMicrotask) {  // seed 003: C, A, D, B
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.order.push_back("C");
    t.order.push_back("A");                    // run(): synchronous up to its await
    t.runtime.queue_microtask(t.log("B"));     // the rest of run() after `await null`
    t.order.push_back("D");
  });
  EXPECT_EQ(t.order, (Order{"C", "A", "D", "B"}));
}

TEST(LoopOrder, ImmediateBeforeTimeoutInsideIo) {  // seed 002, event-loop-io.js
  TempFile file(patterned_bytes(16));
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.read_file(file.path(), [&](std::string, std::string) {
      t.runtime.set_timeout(t.log("timeout"), 0);
      t.runtime.set_immediate(t.log("immediate"));
    });
  });
  EXPECT_EQ(t.order, (Order{"immediate", "timeout"}));
}

TEST(LoopOrder, MainModuleRaceGivesOneOfTwoOrders) {  // seed 000, main-race.ts: a race
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.set_timeout(t.log("timeout"), 0);
    t.runtime.set_immediate(t.log("immediate"));
  });
  EXPECT_TRUE(t.order == (Order{"timeout", "immediate"}) || t.order == (Order{"immediate", "timeout"}));
}

TEST(LoopOrder, BusyLoopDelaysTimer) {  // seed 002, event-loop-blocking.js
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.set_timeout(t.log("timer 50ms"), 50);
    busy_wait(80);
    t.order.push_back("blocking work done");
    t.runtime.set_immediate(t.log("immediate"));
  });
  EXPECT_EQ(t.order, (Order{"blocking work done", "timer 50ms", "immediate"}));
}

TEST(LoopRules, TicksAndMicrotasksDrainBetweenImmediates) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.set_immediate([&] {
      t.order.push_back("immediate A");
      t.runtime.queue_microtask(t.log("microtask from A"));
      t.runtime.next_tick(t.log("tick from A"));
      t.runtime.set_immediate(t.log("immediate queued by A"));  // waits for the next check phase
    });
    t.runtime.set_immediate(t.log("immediate B"));
  });
  EXPECT_EQ(t.order, (Order{"immediate A", "tick from A", "microtask from A", "immediate B", "immediate queued by A"}));
}

TEST(LoopRules, TicksQueuedByMicrotasksRunAfterTheMicrotaskQueue) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.queue_microtask([&] {
      t.order.push_back("micro 1");
      t.runtime.next_tick(t.log("tick from micro 1"));
    });
    t.runtime.queue_microtask(t.log("micro 2"));
    t.runtime.next_tick([&] {
      t.order.push_back("tick 1");
      t.runtime.queue_microtask(t.log("micro from tick 1"));
      t.runtime.next_tick(t.log("tick from tick 1"));
    });
  });
  EXPECT_EQ(t.order, (Order{"tick 1", "tick from tick 1", "micro 1", "micro 2", "micro from tick 1", "tick from micro 1"}));
}

TEST(LoopRules, NodeDelayRule) {
  EXPECT_EQ(Runtime::timer_duration(0), 1);
  EXPECT_EQ(Runtime::timer_duration(0.5), 1);
  EXPECT_EQ(Runtime::timer_duration(-5), 1);
  EXPECT_EQ(Runtime::timer_duration(std::nan("")), 1);
  EXPECT_EQ(Runtime::timer_duration(2.9), 2);
  EXPECT_EQ(Runtime::timer_duration(3e9), 1);  // above 2^31-1: Node warns and uses 1
  EXPECT_EQ(Runtime::timer_duration(2147483647), 2147483647);
}

TEST(LoopRules, TimersOfOneDurationRunAsAListBeforeLaterLists) {
  // Node processes a due list whole: the second 10 ms timer, armed 100 ms after the 15 ms one,
  // still runs before it (deadline order would put it last).
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.set_timeout(t.log("10 ms, first"), 10);
    t.runtime.set_timeout(t.log("15 ms"), 15);
    busy_wait(40);
    t.runtime.set_timeout(t.log("10 ms, armed later"), 10);
    busy_wait(40);
  });
  EXPECT_EQ(t.order, (Order{"10 ms, first", "10 ms, armed later", "15 ms"}));
}

TEST(LoopRules, IntervalTicksUntilCleared) {
  Trace t;
  int ticks = 0;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    auto id = std::make_shared<TimerId>();
    *id = t.runtime.set_interval([&, id] {
      if (++ticks == 3) t.runtime.clear_timer(*id);
    }, 1);
  });
  EXPECT_EQ(ticks, 3);
}

TEST(LoopRules, AClearedTimerNeitherRunsNorKeepsTheLoopAlive) {
  Trace t;
  bool ran = false, alive_after_clear = true;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    TimerId id = t.runtime.set_timeout([&] { ran = true; }, 10'000);
    t.runtime.next_tick([&, id] {
      t.runtime.clear_timer(id);
      alive_after_clear = uv_loop_alive(t.runtime.loop()) != 0;  // nothing left to wait for
    });
  });
  EXPECT_FALSE(ran);
  EXPECT_FALSE(alive_after_clear);
}

TEST(LoopRules, PoolWorkRunsOffTheLoopThreadAndCallsBackOnIt) {
  Trace t;
  std::thread::id loop_thread = std::this_thread::get_id(), work_thread, after_thread;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.queue_work([&] { work_thread = std::this_thread::get_id(); }, [&] {
      after_thread = std::this_thread::get_id();
      t.order.push_back("after");
      t.runtime.next_tick(t.log("tick from after"));
    });
  });
  EXPECT_NE(work_thread, loop_thread);
  EXPECT_EQ(after_thread, loop_thread);
  EXPECT_EQ(t.order, (Order{"after", "tick from after"}));
}

TEST(LoopRules, LookupResolvesAHostsFileName) {
  Trace t;
  std::string address, error;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.lookup("localhost", [&](std::string a, std::string e) {
      address = a;
      error = e;
    });
  });
  EXPECT_EQ(error, "");
  EXPECT_TRUE(is_loopback(address)) << address;
}

TEST(LoopRules, AThrowingCallbackStopsTheLoopAndIsRethrown) {
  Trace t;
  EXPECT_THROW(t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.set_immediate([] { throw std::runtime_error("boom"); });
    t.runtime.set_timeout(t.log("timer after the failure"), 20);
  }), std::runtime_error);
  EXPECT_EQ(t.order, Order{});
}

TEST(LoopRules, TimerPhaseFollowsTheLibuvVersion) {
  EXPECT_FALSE(timer_phase(1, 44).after_poll);
  EXPECT_TRUE(timer_phase(1, 45).after_poll);
  EXPECT_TRUE(timer_phase(1, 46).after_poll);
  EXPECT_TRUE(timer_phase(2, 0).after_poll);
}

// lib/internal/timers.js listOnTimeout: the front timer is peeked, the queues run, and only then
// is it taken off; what they cleared never runs and the one behind it still does.
TEST(LoopTimers, ACallbacksMicrotaskClearsTheNextTimerOfItsList) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    TimerId* next = new TimerId;
    t.runtime.set_timeout([&, next] {
      t.order.push_back("T");
      t.runtime.queue_microtask([&, next] {
        t.order.push_back("TQ");
        t.runtime.clear_timer(*next);
        delete next;
      });
    }, 30);
    *next = t.runtime.set_interval(t.log("V"), 30);
    t.runtime.set_timeout(t.log("T2"), 30);
    t.runtime.set_timeout(t.log("T3"), 30);
  });
  EXPECT_EQ(t.order, (Order{"T", "TQ", "T2", "T3"}));
}

// processTimers: a microtask run between two lists empties the next due one, which is then found
// empty; the list after it still runs.
TEST(LoopTimers, AListEmptiedBetweenListsIsSkipped) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    auto six = std::make_shared<TimerId>();
    t.runtime.set_timeout([&, six] {
      t.order.push_back("5");
      t.runtime.queue_microtask([&, six] { t.runtime.clear_timer(*six); });
    }, 5);
    *six = t.runtime.set_timeout(t.log("6"), 6);
    t.runtime.set_timeout(t.log("7"), 7);
    busy_wait(20);
  });
  EXPECT_EQ(t.order, (Order{"5", "7"}));
}

// A timer that throws goes to 'uncaughtException'; the next timer of the pass runs straight after,
// and the ticks it queued wait for the end of the pass. With no listener the process ends: only
// the 'exit' listeners still run.
TEST(LoopErrors, AThrowingTimerAndItsListener) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.on_uncaught_exception(t.log("uncaught"));
    t.runtime.set_timeout([&] {
      t.order.push_back("t1");
      t.runtime.next_tick(t.log("tick"));
      throw Runtime::Thrown("t1");
    }, 1);
    t.runtime.set_timeout(t.log("t2"), 1);
    busy_wait(3);
  });
  EXPECT_EQ(t.order, (Order{"t1", "uncaught", "t2", "tick"}));

  Trace dies;
  dies.runtime.run_main(ModuleKind::commonjs, [&] {
    dies.runtime.on_exit(dies.log("exit"));
    dies.runtime.set_immediate([&] {
      dies.order.push_back("i1");
      throw Runtime::Thrown("i1");
    });
    dies.runtime.set_immediate(dies.log("i2"));
  });
  EXPECT_EQ(dies.order, (Order{"i1", "exit"}));
}

// A timer that clears itself, alone in its list, then throws (timer-pass-42-174): clearTimeout drops
// the emptied list though the running timer was no longer on it, so the pass RunTimers starts again
// begins at the next list, with no drain before it: its first timer runs before the tick.
TEST(LoopErrors, ATimerThatClearsItselfAndThrowsLeavesNoListBehind) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.on_uncaught_exception(t.log("uncaught"));
    auto self = std::make_shared<TimerId>();
    *self = t.runtime.set_timeout([&t, self] {
      t.order.push_back("t1");
      t.runtime.clear_timer(*self);
      t.runtime.next_tick(t.log("tick"));
      throw Runtime::Thrown("t1");
    }, 1);
    t.runtime.set_timeout(t.log("t2"), 2);
    t.runtime.set_timeout(t.log("t3"), 2);
    busy_wait(4);
  });
  EXPECT_EQ(t.order, (Order{"t1", "uncaught", "t2", "tick", "t3"}));
}

// A handler attached before the report: never reported. After it: 'rejectionHandled' at the next
// report, after the handler's reaction.
TEST(LoopErrors, EarlyAndLateRejectionHandlers) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    auto early = t.runtime.reject_unhandled(t.log("unhandled early"));
    t.runtime.handle_rejection(early, t.log("early catch"));
    auto late = t.runtime.reject_unhandled(t.log("unhandled late"), t.log("handled late"));
    t.runtime.set_timeout([&, late] {
      t.order.push_back("timer");
      t.runtime.handle_rejection(late, t.log("late catch"));
    }, 1);
  });
  EXPECT_EQ(t.order, (Order{"early catch", "unhandled late", "timer", "late catch", "handled late"}));
}

// 'listening' two ticks after listen(0, "127.0.0.1"): after a tick queued just after the call.
TEST(LoopServer, ListeningComesTwoTicksLater) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.listen(t.log("listening"));
    t.runtime.next_tick(t.log("tick"));
  });
  EXPECT_EQ(t.order, (Order{"tick", "listening"}));
}
