// performance.eventLoopUtilization, computed as Node computes it: idle is libuv's
// uv_metrics_idle_time (time blocked in the event provider), active is the wall time since the
// loop started minus idle, and a window's utilisation is active / (idle + active) of the
// differences between two readings. A sampler takes one reading per window so that p50/p99/max
// can be given across windows; a window that contains a stall ends only when the stall does.
#pragma once

#include <uv.h>

#include <cstdint>
#include <vector>

#include "../common/summary.h"

namespace stallbench {

struct EluReading {
  double idle_ms = 0;
  double active_ms = 0;
  double utilization = 0;
};

// performance.eventLoopUtilization() with no argument: totals since `loop_start_ns`.
EluReading elu_now(uv_loop_t* loop, std::uint64_t loop_start_ns);
// performance.eventLoopUtilization(current, previous): the window between two readings.
EluReading elu_between(const EluReading& current, const EluReading& previous);

struct EluWindow {
  double end_ms;       // since the epoch given to start()
  double utilization;  // 0..1
};

class EluSampler {
 public:
  EluSampler(uv_loop_t* loop, double window_ms);
  ~EluSampler();
  EluSampler(const EluSampler&) = delete;
  EluSampler& operator=(const EluSampler&) = delete;

  void start(std::uint64_t epoch_ns);
  void stop();  // closes the window in progress

  const std::vector<EluWindow>& windows() const { return windows_; }
  Summary summary() const;
  EluReading overall() const { return elu_between(last_, first_); }  // start() to stop()

 private:
  static void on_timer(uv_timer_t* timer);
  void close_window();

  uv_loop_t* loop_;
  uv_timer_t* timer_;
  double window_ms_;
  std::uint64_t loop_start_ns_;
  std::uint64_t epoch_ns_ = 0;
  EluReading first_, last_;
  std::vector<EluWindow> windows_;
};

}  // namespace stallbench
