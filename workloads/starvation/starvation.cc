#include "starvation.h"

#include "../common/enum_names.h"
#include "../common/uv_clock.h"
#include "../loop/busy_wait.h"
#include "../loop/runtime.h"

namespace stallbench::loop {

const std::vector<std::string>& scheduler_names() {
  static const std::vector<std::string> names = {"nexttick", "microtask", "immediate", "timeout"};
  return names;
}

Scheduler parse_scheduler(std::string_view name) {
  return enum_named<Scheduler>(scheduler_names(), std::string(name), "scheduler");
}

std::string_view scheduler_name(Scheduler s) { return scheduler_names()[static_cast<std::size_t>(s)]; }

namespace {

// The chain: each call counts itself and queues the next. The closure holds one pointer, so
// std::function keeps it inline: queuing a call allocates nothing.
struct Chain {
  Runtime& runtime;
  Scheduler scheduler;
  std::int64_t n;
  std::int64_t calls = 0;
  std::uint64_t start_ns = 0, end_ns = 0;

  void queue_next() {
    auto next = [this] { call(); };
    switch (scheduler) {
      case Scheduler::nexttick: runtime.next_tick(next); break;
      case Scheduler::microtask: runtime.queue_microtask(next); break;
      case Scheduler::immediate: runtime.set_immediate(next); break;
      case Scheduler::timeout: runtime.set_timeout(next, 0); break;
    }
  }

  void call() {
    if (++calls < n) {
      queue_next();
    } else {
      end_ns = uv_hrtime();
    }
  }
};

}  // namespace

RescheduleResult run_reschedule(Scheduler scheduler, std::int64_t n, const std::string& file_path) {
  RescheduleResult r;
  Runtime runtime;
  Chain chain{runtime, scheduler, n};
  runtime.run_main(ModuleKind::commonjs, [&] {
    runtime.set_timeout([&] { r.calls_before_timer = chain.calls; }, 1);
    runtime.read_file(file_path, [&](std::string bytes, std::string error) {
      r.calls_before_io = chain.calls;
      r.bytes_read = static_cast<std::int64_t>(bytes.size());
      r.error = std::move(error);
    });
    chain.start_ns = uv_hrtime();
    chain.queue_next();
  });
  r.calls = chain.calls;
  r.total_ms = static_cast<double>(chain.end_ns - chain.start_ns) / 1e6;
  return r;
}

BusyTimerResult run_busy_timer(double busy_ms, double timer_ms) {
  BusyTimerResult r;
  Runtime runtime;
  runtime.run_main(ModuleKind::commonjs, [&] {
    std::uint64_t armed = uv_hrtime();
    runtime.set_timeout([&r, armed] { r.timer_fired_ms = ms_since(armed); }, timer_ms);
    busy_wait(busy_ms);
    r.busy_done_ms = ms_since(armed);
  });
  return r;
}

Pbkdf2Params async_pbkdf2_params(int i, int iterations) {
  Pbkdf2Params p;
  p.password = "password-" + std::to_string(i);
  p.iterations = iterations;
  return p;
}

AsyncHashResult run_async_pbkdf2(int calls, int iterations, double interval_ms) {
  AsyncHashResult r;
  Runtime runtime;
  int ticks = 0;
  runtime.run_main(ModuleKind::esm, [&] {  // the seed's lab is an ES module (top-level await)
    TimerId interval = runtime.set_interval([&] { ++ticks; }, interval_ms);
    std::uint64_t called = uv_hrtime();
    // The async function's body: no await inside, so all of it runs before it returns.
    Key key;
    for (int i = 0; i < calls; ++i) key = pbkdf2(async_pbkdf2_params(i, iterations));
    r.last_key_hex = to_hex(key);
    r.returned_ms = ms_since(called);
    r.ticks_before_return = ticks;
    // `await pending`: the rest of the module resumes in a microtask and clears the interval.
    runtime.queue_microtask([&, interval] {
      r.ticks_before_resume = ticks;
      runtime.clear_timer(interval);
    });
  });
  return r;
}

}  // namespace stallbench::loop
