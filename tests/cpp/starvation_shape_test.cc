// The seeds' starvation shapes, not their times: a nextTick or microtask chain makes the timer and
// the file read wait for every call; a setImmediate chain lets the timer in within the first
// tenth of the calls; a timer behind synchronous work fires after it; an async function with
// synchronous work inside returns only when the work is done, the interval never ticking.
#include <gtest/gtest.h>

#include "workloads/common/temp_file.h"
#include "workloads/starvation/starvation.h"

using namespace stallbench;
using namespace stallbench::loop;

namespace {

RescheduleResult reschedule(Scheduler s, std::int64_t n) {
  TempFile file(patterned_bytes(4096), "stallbench-starvation-test");
  RescheduleResult r = run_reschedule(s, n, file.path());
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.bytes_read, 4096);
  EXPECT_EQ(r.calls, n);
  return r;
}

}  // namespace

TEST(StarvationShape, NextTickChainStarvesTheTimerAndTheFileRead) {
  auto r = reschedule(Scheduler::nexttick, 20'000);
  EXPECT_EQ(r.calls_before_timer, 20'000);
  EXPECT_EQ(r.calls_before_io, 20'000);
}

TEST(StarvationShape, MicrotaskChainStarvesThemToo) {
  auto r = reschedule(Scheduler::microtask, 20'000);
  EXPECT_EQ(r.calls_before_timer, 20'000);
  EXPECT_EQ(r.calls_before_io, 20'000);
}

TEST(StarvationShape, ImmediateChainLetsTheTimerAndTheFileReadIn) {
  const std::int64_t n = 200'000;
  auto r = reschedule(Scheduler::immediate, n);
  EXPECT_LT(r.calls_before_timer, n / 10);
  EXPECT_LT(r.calls_before_io, n);
}

TEST(StarvationShape, TimeoutChainYieldsAtEveryCall) {
  // The 1 ms timer armed first shares the chain's 1 ms list and was armed before the first call.
  auto r = reschedule(Scheduler::timeout, 200);
  EXPECT_EQ(r.calls_before_timer, 0);
  EXPECT_LT(r.calls_before_io, 200);
}

TEST(StarvationShape, TimerFiresOnlyAfterTheSynchronousWork) {
  BusyTimerResult r = run_busy_timer(60, 5);
  EXPECT_GE(r.busy_done_ms, 60);
  EXPECT_GE(r.timer_fired_ms, r.busy_done_ms);
}

TEST(StarvationShape, AsyncFunctionReturnsOnlyAfterItsSynchronousWork) {
  AsyncHashResult r = run_async_pbkdf2(3, 30'000, 1);
  EXPECT_EQ(r.ticks_before_return, 0);
  EXPECT_EQ(r.ticks_before_resume, 0);
  EXPECT_EQ(r.last_key_hex, to_hex(pbkdf2(async_pbkdf2_params(2, 30'000))));
}

TEST(StarvationShape, SchedulerNames) {
  for (auto name : {"nexttick", "microtask", "immediate", "timeout"}) EXPECT_EQ(scheduler_name(parse_scheduler(name)), name);
  EXPECT_THROW(parse_scheduler("soon"), std::invalid_argument);
}
