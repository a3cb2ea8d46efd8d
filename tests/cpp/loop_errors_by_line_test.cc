// What the runtime does after a thrown exception and during an unhandled-rejection report, line by
// line, each case first seen as a held-out program (tests/heldout/) whose order Node gave and the
// model did not: the queues a handled throw leaves behind, a throw in the drain between two
// immediates, and a rejection handled while the report that holds it is running.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/loop/busy_wait.h"
#include "workloads/loop/runtime.h"

using namespace stallbench::loop;
using Order = std::vector<std::string>;

namespace {

struct Trace {
  explicit Trace(int line) : runtime(node_line_model(line)) {}
  Runtime runtime;
  Order order;
  Callback log(std::string label) {
    return [this, label] { order.push_back(label); };
  }
  // A tick that logs and throws, then one that logs.
  void throwing_tick_then_tick() {
    runtime.next_tick([this] {
      order.push_back("t1 throws");
      throw Runtime::Thrown("t1");
    });
    runtime.next_tick(log("t2"));
  }
};

}  // namespace

// A tick of an I/O callback throws. Up to Node 24 the next check phase begins with a drain (the
// native immediates' callback scope), so the tick left behind runs before the immediate; Node 26
// runs the immediate first (heldout h39).
TEST(LoopErrorsByLine, WhatAThrowLeftRunsAsTheCheckPhaseBeginsUpTo24) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.on_uncaught_exception(t.log("uncaught"));
      t.runtime.close_socket([&] {
        t.order.push_back("closed");
        t.throwing_tick_then_tick();
        t.runtime.set_immediate(t.log("immediate"));
      });
    });
    Order drained_first = {"closed", "t1 throws", "uncaught", "t2", "immediate"};
    Order immediate_first = {"closed", "t1 throws", "uncaught", "immediate", "t2"};
    EXPECT_EQ(t.order, line <= 24 ? drained_first : immediate_first) << "Node " << line;
  }
}

// With nothing else pending the loop still makes one more turn (Node's handler queues an empty
// immediate), so what the throw left runs on every line (heldout h38).
TEST(LoopErrorsByLine, WhatAThrowLeftRunsEvenWithNothingElsePending) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.on_uncaught_exception(t.log("uncaught"));
      t.throwing_tick_then_tick();
    });
    EXPECT_EQ(t.order, (Order{"t1 throws", "uncaught", "t2"})) << "Node " << line;
  }
}

// A throw in the drain between two immediates: the second runs at once, the tick after it, and the
// loop ends (before, the second was dropped while still counted as pending: the loop never ended).
TEST(LoopErrorsByLine, AThrowBetweenImmediatesRunsTheNextOne) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.on_uncaught_exception(t.log("uncaught"));
      t.runtime.set_immediate([&] {
        t.order.push_back("i1");
        t.runtime.set_timeout(t.log("timer"), 1);
        busy_wait(3);
        t.throwing_tick_then_tick();
      });
      t.runtime.set_immediate(t.log("i2"));
    });
    EXPECT_EQ(t.order, (Order{"i1", "t1 throws", "uncaught", "i2", "t2", "timer"})) << "Node " << line;
  }
}

// The first rejection's listener handles the second before its turn in the same report: Node 18
// skips it, 20 on report it all the same, with no 'rejectionHandled' after (heldout h17, h40).
TEST(LoopErrorsByLine, ARejectionHandledDuringItsReport) {
  for (int line : modelled_lines()) {
    Trace t(line);
    Runtime::RejectionId second = 0;  // read by the first's listener, in the loop
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.reject_unhandled([&] {
        t.order.push_back("unhandled first");
        t.runtime.handle_rejection(second, t.log("second caught"));
      });
      second = t.runtime.reject_unhandled(t.log("unhandled second"), t.log("second handled late"));
    });
    Order skipped = {"unhandled first", "second caught"};
    Order reported = {"unhandled first", "unhandled second", "second caught"};
    EXPECT_EQ(t.order, line == 18 ? skipped : reported) << "Node " << line;
  }
}

// Node 26 leaves them for the next callback, unless V8 runs a task of its own (in a callback scope)
// in a poll phase first: after a throw in a timer's tick the two branches give two orders; after
// one in an fs callback (the poll phase) the check phase comes next on both, and after one in the
// main module's drain Node never showed it (heldout h13): one order.
TEST(LoopErrorsByLine, OnNode26APollPhaseBeforeTheNextCallbackMakesItARace) {
  enum class Where { timer, fs_callback, main_module };
  auto run = [](ThrownQueues branch, Where where) {
    Trace t(26);
    t.runtime.set_thrown_queues(branch);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.on_uncaught_exception(t.log("uncaught"));
      auto body = [&] {
        t.throwing_tick_then_tick();
        t.runtime.set_immediate(t.log("immediate"));
      };
      if (where == Where::fs_callback) {
        t.runtime.stat("/", [body](const std::string&) { body(); });
      } else if (where == Where::timer) {
        t.runtime.set_timeout(body, 1);
      } else {
        body();
      }
    });
    return t.order;
  };
  Order drained = {"t1 throws", "uncaught", "t2", "immediate"};
  Order later = {"t1 throws", "uncaught", "immediate", "t2"};
  EXPECT_EQ(run(ThrownQueues::next_callback, Where::timer), later);
  EXPECT_EQ(run(ThrownQueues::drained_in_poll, Where::timer), drained);
  for (Where where : {Where::fs_callback, Where::main_module}) {
    EXPECT_EQ(run(ThrownQueues::next_callback, where), later);
    EXPECT_EQ(run(ThrownQueues::drained_in_poll, where), later);
  }
  for (int line : modelled_lines()) {
    if (node_line_model(line).thrown_queues == ThrownQueues::either) continue;
    Trace t(line);
    EXPECT_THROW(t.runtime.set_thrown_queues(ThrownQueues::drained_in_poll), std::logic_error) << "Node " << line;
  }
}
