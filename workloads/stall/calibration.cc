#include "calibration.h"

#include <algorithm>

#include "../common/owned_loop.h"
#include "../common/thread_clock.h"
#include "../common/uv_check.h"
#include "../common/uv_clock.h"
#include "delay_monitor.h"
#include "loop_utilization.h"
#include "stall_meter.h"

namespace stallbench {

namespace {

// Loop-thread CPU per wall ms while idling, optionally under the three instruments.
double idle_cpu_fraction(double resolution_ms, double seconds, bool instrumented) {
  OwnedLoop loop;
  DelayMonitor monitor(loop.get(), resolution_ms);
  StallMeter meter(loop.get(), 1);
  EluSampler elu(loop.get(), 100);
  if (instrumented) {
    std::uint64_t epoch = uv_hrtime();
    monitor.start(epoch);
    meter.start(epoch);
    elu.start(epoch);
  }
  double cpu0 = thread_cpu_ms(), wall0 = hrtime_ms();
  idle_loop_for(loop.get(), seconds * 1e3);
  double cpu = thread_cpu_ms() - cpu0, wall = hrtime_ms() - wall0;
  monitor.stop();
  meter.stop();
  elu.stop();
  return cpu / wall;
}

}  // namespace

double spin_ms(double ms) {
  std::uint64_t start = uv_hrtime(), until = start + static_cast<std::uint64_t>(ms * 1e6), now = start;
  while (now < until) now = uv_hrtime();
  return static_cast<double>(now - start) / 1e6;
}

Calibration calibrate_meters(double stall_ms, int stalls, double resolution_ms, double gap_ms) {
  struct Injector {
    double stall_ms;
    int left;
    std::uint64_t epoch;
    std::vector<std::pair<double, double>> injected;  // (start since epoch, wall ms)
  };
  OwnedLoop owned;
  uv_loop_t* loop = owned.get();
  DelayMonitor monitor(loop, resolution_ms);
  StallMeter meter(loop, stall_ms / 4);
  std::uint64_t epoch = uv_hrtime();
  Injector injector{stall_ms, stalls, epoch, {}};
  monitor.start(epoch);
  meter.start(epoch);

  uv_timer_t timer;
  uv_timer_init(loop, &timer);
  timer.data = &injector;
  uv_timer_start(&timer, [](uv_timer_t* t) {
    auto* in = static_cast<Injector*>(t->data);
    double at = ms_since(in->epoch);
    in->injected.emplace_back(at, spin_ms(in->stall_ms));
    if (--in->left == 0) uv_timer_stop(t);
  }, static_cast<std::uint64_t>(gap_ms), static_cast<std::uint64_t>(gap_ms));
  uv_run(loop, UV_RUN_DEFAULT);  // the timer is the only ref'd handle: returns after the last stall
  // One more period so the monitor sees the loop after the last stall.
  idle_loop_for(loop, resolution_ms * 2 + 1);
  uv_close(reinterpret_cast<uv_handle_t*>(&timer), nullptr);
  monitor.stop();
  meter.stop();
  uv_run(loop, UV_RUN_DEFAULT);

  Calibration c;
  c.monitor = monitor.summary();
  for (auto [at, ms] : injector.injected) {
    c.injected_ms.push_back(ms);
    // The meter's span that overlaps the injected stall the most is the one that sized it.
    double best = 0, sized = 0;
    for (const auto& s : meter.stalls_over_threshold()) {
      double overlap = std::min(s.at_ms + s.ms, at + ms) - std::max(s.at_ms, at);
      if (overlap > best) best = overlap, sized = s.ms;
    }
    c.sized_ms.push_back(sized);
  }
  return c;
}

double instruments_idle_cost(double resolution_ms, double seconds) {
  double without = idle_cpu_fraction(resolution_ms, seconds, false);
  double with = idle_cpu_fraction(resolution_ms, seconds, true);
  return with - without;
}

}  // namespace stallbench
