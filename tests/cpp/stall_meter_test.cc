// The instruments against stalls of known length: the exact meter sizes each busy-wait to what
// it actually took (the busy-wait times itself, so preemption on a shared machine does not count
// against the meter); the 10 ms delay monitor reads about its resolution whatever happens, so a
// 2 ms stall is invisible to it; an idle loop's monitor reads the resolution, not zero.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/common/percentile.h"
#include "workloads/loop/calibration.h"
#include "workloads/loop/delay_monitor.h"
#include "workloads/loop/loop_utilization.h"

using namespace stallbench;

namespace {

class ExactMeter : public ::testing::TestWithParam<double> {};

}  // namespace

TEST_P(ExactMeter, SizesEachBusyStall) {
  double stall = GetParam();
  Calibration c = calibrate_meters(stall, 5, 10);
  ASSERT_EQ(c.injected_ms.size(), 5u);
  std::vector<double> errors;
  for (std::size_t i = 0; i < c.injected_ms.size(); ++i) {
    EXPECT_GE(c.injected_ms[i], stall);
    // The meter's span holds the whole callback that spun, and not much more.
    EXPECT_GE(c.sized_ms[i], c.injected_ms[i]) << "stall " << i;
    errors.push_back(c.sized_ms[i] - c.injected_ms[i]);
  }
  EXPECT_LE(median(errors), 0.2) << "median error of the exact meter";
}

INSTANTIATE_TEST_SUITE_P(Stalls, ExactMeter, ::testing::Values(2.0, 5.0, 20.0));

TEST(DelayMonitor, CannotResolveATwoMillisecondStall) {
  Calibration c = calibrate_meters(2, 5, 10);
  // Every gap it records contains its own 10 ms period: nothing near 2 ms, and not even a
  // sign that the stalls happened (its readings are those of an idle loop).
  EXPECT_GE(c.monitor.p50, 9.0);
  EXPECT_GE(c.monitor.max, 9.0);
  EXPECT_GT(c.monitor.p50 - median(c.injected_ms), 5.0);
}

TEST(DelayMonitor, IdleLoopReadsTheResolution) {
  OwnedLoop loop;
  DelayMonitor monitor(loop.get(), 10);
  monitor.start(uv_hrtime());
  uv_timer_t end;
  uv_timer_init(loop.get(), &end);
  uv_timer_start(&end, [](uv_timer_t*) {}, 120, 0);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  monitor.stop();
  uv_close(reinterpret_cast<uv_handle_t*>(&end), nullptr);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  ASSERT_GE(monitor.samples().size(), 5u);
  EXPECT_GE(monitor.summary().p50, 9.0);  // not ~0: the resolution artefact, as in Node
}

TEST(LoopUtilization, BusyWindowAboveIdleWindow) {
  OwnedLoop loop;
  std::uint64_t start = uv_hrtime();
  uv_timer_t timer;
  uv_timer_init(loop.get(), &timer);
  struct Readings {
    uv_loop_t* loop;
    std::uint64_t start;
    EluReading before, middle, after;
    int fired = 0;
  } r{loop.get(), start, elu_now(loop.get(), start), {}, {}};
  timer.data = &r;
  // First firing: the loop idled 40 ms. Second: it spins 40 ms inside the callback.
  uv_timer_start(&timer, [](uv_timer_t* t) {
    auto* r = static_cast<Readings*>(t->data);
    if (r->fired++ == 0) {
      r->middle = elu_now(r->loop, r->start);
      return;
    }
    spin_ms(40);
    r->after = elu_now(r->loop, r->start);
    uv_timer_stop(t);
  }, 40, 1);
  uv_loop_configure(loop.get(), UV_METRICS_IDLE_TIME);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  uv_close(reinterpret_cast<uv_handle_t*>(&timer), nullptr);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  double idle = elu_between(r.middle, r.before).utilization;
  double busy = elu_between(r.after, r.middle).utilization;
  EXPECT_LT(idle, busy);
  EXPECT_GT(busy, 0.5);
  EXPECT_GE(idle, 0.0);
}
