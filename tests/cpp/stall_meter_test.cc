// The instruments against stalls of known length: the exact meter's span holds each busy-wait
// (the busy-wait times itself, so preemption on a shared machine counts on both sides); the 10 ms
// delay monitor reads at least its resolution whatever happens, so a 2 ms stall is invisible to
// it; an idle loop's monitor reads the resolution, not zero. Only bounds that load cannot break
// are asserted: a libuv timer never fires early by a whole ms (its clock counts whole ms), and a
// span measured around a busy-wait contains it. How close the meter comes (the ±0.2 ms target) is
// a figure of the benchmark, report/meters' stall_error_ms, and of the report's calibration table.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/stall/calibration.h"
#include "workloads/stall/delay_monitor.h"
#include "workloads/stall/loop_utilization.h"

using namespace stallbench;

namespace {

class ExactMeter : public ::testing::TestWithParam<double> {};

// A gap between two firings of a timer repeating every `resolution` ms: at least that, less the
// part of a ms that libuv's whole-ms clock can lose.
double shortest_gap(double resolution_ms) { return resolution_ms - 1; }

}  // namespace

TEST_P(ExactMeter, SizesEachBusyStall) {
  double stall = GetParam();
  Calibration c = calibrate_meters(stall, 5, 10);
  ASSERT_EQ(c.injected_ms.size(), 5u);
  for (std::size_t i = 0; i < c.injected_ms.size(); ++i) {
    EXPECT_GE(c.injected_ms[i], stall);
    // The meter's span holds the whole callback that spun.
    EXPECT_GE(c.sized_ms[i], c.injected_ms[i]) << "stall " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Stalls, ExactMeter, ::testing::Values(2.0, 5.0, 20.0));

TEST(DelayMonitor, CannotResolveATwoMillisecondStall) {
  const double stall = 2, resolution = 10;
  Calibration c = calibrate_meters(stall, 5, resolution);
  // Every gap it records contains its own 10 ms period, so none can be a 2 ms stall's size.
  ASSERT_GT(shortest_gap(resolution), stall);
  EXPECT_GE(c.monitor.p50, shortest_gap(resolution));
  EXPECT_GE(c.monitor.max, shortest_gap(resolution));
}

TEST(DelayMonitor, IdleLoopReadsTheResolution) {
  OwnedLoop loop;
  DelayMonitor monitor(loop.get(), 10);
  monitor.start(uv_hrtime());
  // Idle until its fifth gap, not for a fixed time that a busy machine may fit fewer gaps into.
  uv_check_t enough;
  uv_check_init(loop.get(), &enough);
  enough.data = &monitor;
  uv_check_start(&enough, [](uv_check_t* check) {
    if (static_cast<DelayMonitor*>(check->data)->samples().size() >= 5) uv_check_stop(check);
  });
  uv_run(loop.get(), UV_RUN_DEFAULT);  // blocks in poll until each firing: the check is no timer
  monitor.stop();
  uv_close(reinterpret_cast<uv_handle_t*>(&enough), nullptr);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  ASSERT_GE(monitor.samples().size(), 5u);
  EXPECT_GE(monitor.summary().p50, shortest_gap(monitor.resolution_ms()));  // not ~0: the resolution artefact, as in Node
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
    double spun = 0;
  } r{loop.get(), start, elu_now(loop.get(), start), {}, {}};
  timer.data = &r;
  // First firing: the loop idled 40 ms. Second: it spins 40 ms inside the callback.
  uv_timer_start(&timer, [](uv_timer_t* t) {
    auto* r = static_cast<Readings*>(t->data);
    if (r->fired++ == 0) {
      r->middle = elu_now(r->loop, r->start);
      return;
    }
    r->spun = spin_ms(40);
    r->after = elu_now(r->loop, r->start);
    uv_timer_stop(t);
  }, 40, 1);
  uv_loop_configure(loop.get(), UV_METRICS_IDLE_TIME);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  uv_close(reinterpret_cast<uv_handle_t*>(&timer), nullptr);
  uv_run(loop.get(), UV_RUN_DEFAULT);
  double idle = elu_between(r.middle, r.before).utilization;
  EluReading busy = elu_between(r.after, r.middle);
  EXPECT_LT(idle, busy.utilization);
  EXPECT_GE(busy.active_ms, r.spun);  // the spin was active time, not idle
  EXPECT_GE(idle, 0.0);
}
