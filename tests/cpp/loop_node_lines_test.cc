// What the runtime does differently by the Node line it models, each checked here against the
// real lines' behaviour (docs/starvation.md, "Per line"): the ES module entry, fs.readFile's and
// fs.writeFile's request sequences (counted), where the timers phase is; and the callbacks that
// are the same on every line: promises that adopt promises, Promise.all/race, clearImmediate,
// socket close callbacks, beforeExit, unhandled rejections, Node's start-up tail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "workloads/common/temp_file.h"
#include "workloads/loop/busy_wait.h"
#include "workloads/loop/promise.h"
#include "workloads/loop/runtime.h"

using namespace stallbench;
using namespace stallbench::loop;
using Order = std::vector<std::string>;
namespace fs = std::filesystem;

namespace {

struct Trace {
  explicit Trace(int line = newest_modelled_line()) : runtime(node_line_model(line)) {}
  Runtime runtime;
  Promises promises{runtime};
  Order order;
  Callback log(std::string label) {
    return [this, label] { order.push_back(label); };
  }
  // A `then` callback that logs and returns a plain value.
  std::function<Promise()> logged(std::string label) {
    return [this, label] {
      order.push_back(label);
      return Promise();
    };
  }
};

// What one fs.readFile costs in pool requests on `line`, and what it read.
std::pair<std::uint64_t, std::string> read_file_requests(int line, const std::string& path) {
  Trace t(line);
  std::string read, failure;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.read_file(path, [&](std::string bytes, std::string error) {
      read = std::move(bytes);
      failure = std::move(error);
    });
  });
  EXPECT_EQ(failure, "") << path;
  return {t.runtime.fs_requests(), read};
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

// From an ES module entry, an already-expired 0 ms timer and an immediate: Node 18 and 20 run the
// body from the entry's read (poll), so the immediate comes first, every time; 22 on evaluate it
// before the loop, so the due timer comes first.
TEST(NodeLines, EsModuleEntryByLine) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::esm, [&] {
      t.runtime.set_timeout(t.log("timeout"), 0);
      busy_wait(3);
      t.runtime.set_immediate(t.log("immediate"));
    });
    bool read_on_pool = node_line_model(line).esm_entry == EsmEntry::read_on_pool;
    EXPECT_EQ(t.order, read_on_pool ? (Order{"immediate", "timeout"}) : (Order{"timeout", "immediate"})) << "Node " << line;
  }
  EXPECT_EQ(node_line_model(20).esm_entry, EsmEntry::read_on_pool);
  EXPECT_EQ(node_line_model(22).esm_entry, EsmEntry::before_loop);
}

// An ES module body is a microtask on every line: its promise reactions run before its ticks.
TEST(NodeLines, EsModuleBodyIsAMicrotaskOnEveryLine) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::esm, [&] {
      t.runtime.queue_microtask(t.log("promise"));
      t.runtime.next_tick(t.log("tick"));
    });
    EXPECT_EQ(t.order, (Order{"promise", "tick"})) << "Node " << line;
  }
}

// fs.readFile: open, fstat, reads of at most 512 KiB (64 KiB until a 0-byte read when fstat says
// 0 bytes), close, one request each; Node 26 reads a file up to 512 KiB, or of size 0, in one.
TEST(NodeLines, ReadFileRequestsByLine) {
  TempFile empty(std::string{});
  TempFile big(patterned_bytes(3 * 512 * 1024));  // 1.5 MiB
  TempFile just_over(patterned_bytes(512 * 1024 + 1));
  for (int line : {18, 20, 22, 24}) {
    EXPECT_EQ(read_file_requests(line, empty.path()).first, 4u) << "open, fstat, one read, close on Node " << line;
    EXPECT_EQ(read_file_requests(line, big.path()).first, 6u) << "three 512 KiB reads on Node " << line;
    EXPECT_EQ(read_file_requests(line, "/proc/version").first, 5u) << "a read with the text, a 0-byte one, on Node " << line;
  }
  EXPECT_EQ(read_file_requests(26, empty.path()).first, 1u);
  EXPECT_EQ(read_file_requests(26, "/proc/version").first, 1u);
  EXPECT_EQ(read_file_requests(26, big.path()).first, 5u);  // open+fstat, three reads, close
  EXPECT_EQ(read_file_requests(26, just_over.path()).first, 4u);
  for (int line : modelled_lines()) {
    EXPECT_EQ(read_file_requests(line, big.path()).second, big.bytes()) << "Node " << line;
    EXPECT_EQ(read_file_requests(line, "/proc/version").second, contents("/proc/version")) << "a size-0 file is read, Node " << line;
    EXPECT_EQ(read_file_requests(line, empty.path()).second, "") << "Node " << line;
  }
}

TEST(NodeLines, FsErrorsAreNodesCodes) {
  for (int line : {24, 26}) {
    Trace t(line);
    std::vector<std::string> errors;
    auto record = [&](std::string error) { errors.push_back(std::move(error)); };
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.read_file("/nonexistent/stallbench", [&](std::string, std::string e) { record(e); });
      t.runtime.stat("/nonexistent/stallbench", record);
      t.runtime.write_file("/nonexistent/stallbench/out", "x", record);
      t.runtime.read_file("/proc", [&](std::string, std::string e) { record(e); });
    });
    std::sort(errors.begin(), errors.end());
    EXPECT_EQ(errors, (std::vector<std::string>{"EISDIR", "ENOENT", "ENOENT", "ENOENT"})) << "Node " << line;
    EXPECT_EQ(t.runtime.fs_requests(), line == 26 ? 4u : 7u) << "a failed open ends the call; a directory fails at read";
  }
}

TEST(NodeLines, WriteFileAndOpenClose) {
  fs::path dir = fs::temp_directory_path() / ("stallbench-write-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (int line : {24, 26}) {
    Trace t(line);
    std::string out = (dir / ("out-" + std::to_string(line))).string();
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.write_file(out, std::string(100'000, 'x'), [&](std::string error) {
        EXPECT_EQ(error, "");
        t.runtime.open(out, [&](int fd, std::string error) {
          EXPECT_EQ(error, "");
          t.runtime.close(fd, [&](std::string error) { EXPECT_EQ(error, ""); });
        });
      });
    });
    EXPECT_EQ(fs::file_size(out), 100'000u);
    EXPECT_EQ(t.runtime.fs_requests(), line == 26 ? 3u : 5u) << "writeFile: open, write, close on 24; one on 26";
  }
  fs::remove_all(dir);
}

// libuv 1.45 (Node 20 on) runs a due timer after check, before the loop asks whether anything
// keeps it alive; 1.44 (Node 18) asks first and exits past an unref'd timer.
TEST(NodeLines, UnrefdTimerAfterTheCheckPhase) {
  for (int line : {18, 20}) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.set_immediate([&] {
        t.order.push_back("immediate");
        t.runtime.unref_timer(t.runtime.set_timeout(t.log("unref'd timer"), 1));
        busy_wait(3);
      });
    });
    EXPECT_EQ(t.order, line == 18 ? Order{"immediate"} : (Order{"immediate", "unref'd timer"})) << "Node " << line;
  }
}

// A start-up tail longer than libuv's millisecond makes a main module's 0 ms timer due at the
// loop's first timers check on every line: the race of setTimeout 0 and setImmediate is decided.
TEST(NodeLines, AStartupTailOverAMillisecondLetsTheTimerWin) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.set_startup_tail(2.5);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.set_timeout(t.log("timeout"), 0);
      t.runtime.set_immediate(t.log("immediate"));
    });
    EXPECT_EQ(t.order, (Order{"timeout", "immediate"})) << "Node " << line;
  }
}

TEST(Promises, ReturningAPromiseCostsTwoHops) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    Promise a = t.promises.then(t.promises.resolved(), [&] {
      t.order.push_back("a1");
      return t.promises.resolved();
    });
    t.promises.then(a, t.logged("a2"));
    Promise b = t.promises.resolved();
    for (std::string label : {"b1", "b2", "b3", "b4"}) b = t.promises.then(b, t.logged(label));
  });
  EXPECT_EQ(t.order, (Order{"a1", "b1", "b2", "b3", "a2", "b4"}));
}

TEST(Promises, AllWaitsForEveryChildRaceForTheFirst) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    Promise slow = t.promises.pending(), fast = t.promises.pending();
    t.promises.then(t.promises.all({slow, fast}), t.logged("all"));
    t.promises.then(t.promises.race({slow, fast}), t.logged("race"));
    t.runtime.set_immediate([&t, fast] {
      t.order.push_back("fast settles");
      t.promises.fulfil(fast);
    });
    t.runtime.set_timeout([&t, slow] {
      t.order.push_back("slow settles");
      t.promises.fulfil(slow);
    }, 5);
  });
  EXPECT_EQ(t.order, (Order{"fast settles", "race", "slow settles", "all"}));
}

TEST(LoopCallbacks, ClearImmediateInTheSameCheckPhase) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    auto b = std::make_shared<ImmediateId>();
    t.runtime.set_immediate([&t, b] {
      t.order.push_back("A");
      t.runtime.clear_immediate(*b);
    });
    *b = t.runtime.set_immediate(t.log("B"));
    t.runtime.set_immediate(t.log("C"));
  });
  EXPECT_EQ(t.order, (Order{"A", "C"}));
}

TEST(LoopCallbacks, SocketCloseRunsInTheClosePhase) {
  for (int line : modelled_lines()) {
    Trace t(line);
    t.runtime.run_main(ModuleKind::commonjs, [&] {
      t.runtime.set_immediate([&] {
        t.order.push_back("immediate");
        t.runtime.set_timeout(t.log("timeout"), 0);
        t.runtime.close_socket(t.log("close"));
        t.runtime.set_immediate(t.log("next immediate"));
      });
    });
    // The timeout and the next immediate race (is the 1 ms timer due when the timers phase comes?).
    ASSERT_EQ(t.order.size(), 4u) << "Node " << line;
    EXPECT_EQ(t.order[1], "close") << "the close phase follows check, before any timer, Node " << line;
  }
}

TEST(LoopCallbacks, BeforeExitRunsTheLoopAgain) {
  Trace t;
  int calls = 0;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.unref_timer(t.runtime.set_timeout(t.log("unref'd timer"), 2000));
    auto id = std::make_shared<std::uint64_t>();
    *id = t.runtime.on_before_exit([&t, &calls, id] {
      t.order.push_back("beforeExit");
      if (++calls == 2) t.runtime.off_before_exit(*id);
      t.runtime.set_timeout(t.log("timer"), 0);
    });
  });
  EXPECT_EQ(t.order, (Order{"beforeExit", "timer", "beforeExit", "timer"}));
}

TEST(LoopCallbacks, UnhandledRejectionsAfterTheQueues) {
  Trace t;
  t.runtime.run_main(ModuleKind::commonjs, [&] {
    t.runtime.reject_unhandled(t.log("rejection 1"));
    t.runtime.set_immediate(t.log("immediate"));
    t.runtime.queue_microtask([&] {
      t.order.push_back("microtask");
      t.runtime.reject_unhandled([&] {
        t.order.push_back("rejection 2");
        t.runtime.next_tick(t.log("tick from a listener"));
      });
    });
    t.runtime.next_tick(t.log("tick"));
  });
  EXPECT_EQ(t.order, (Order{"tick", "microtask", "rejection 1", "rejection 2", "tick from a listener", "immediate"}));
}

// A timer armed in the queues' drain after a timer's pass (a microtask), then, after busy work,
// another setTimeout (its getLibuvNow moves the loop's time on): before libuv 1.48 (Node 18, 20)
// the pass looks at its heap again and the first runs before the check phase's immediate; from
// 1.48 (Node 22 on) the immediate comes first. Armed in the timer's own callback, the immediate
// comes first everywhere (RunTimers re-arms relative to the time it has then). Each as Node gave
// it, five runs a line.
TEST(NodeLines, ATimerRearmedDueInTheDrainRunsInTheSamePassBeforeLibuv148) {
  for (int line : modelled_lines()) {
    for (bool in_drain : {true, false}) {
      Trace t(line);
      t.runtime.run_main(ModuleKind::commonjs, [&] {
        t.runtime.set_timeout([&] {
          t.runtime.set_immediate(t.log("immediate"));
          auto arm = [&] {
            t.runtime.set_timeout(t.log("t1"), 1);
            busy_wait(5);
            t.runtime.set_timeout(t.log("t2"), 50);
          };
          if (in_drain) {
            t.runtime.queue_microtask(arm);
          } else {
            arm();
          }
        }, 20);
      });
      bool rerun = in_drain && line <= 20;
      EXPECT_EQ(t.order, rerun ? (Order{"t1", "immediate", "t2"}) : (Order{"immediate", "t1", "t2"}))
          << "Node " << line << (in_drain ? ", armed in the drain" : ", armed in the callback");
    }
  }
}
