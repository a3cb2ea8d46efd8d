// The exact stall meter: how long each loop iteration spent outside waiting in poll. A prepare
// hook runs just before libuv blocks in epoll_wait; between two prepares the loop did one
// iteration, of which uv_metrics_idle_time says how long it waited for I/O. The rest is time the
// loop could not answer anything: a stall, sized with uv_hrtime's nanoseconds whatever any
// timer's resolution, and placed on the time axis from the end of the wait to the next prepare.
//
// Enabling the meter turns on UV_METRICS_IDLE_TIME for the loop, as Node does at start-up (it is
// what performance.eventLoopUtilization reads).
#pragma once

#include <uv.h>

#include <cstdint>
#include <vector>

#include "../common/summary.h"

namespace stallbench {

struct Stall {
  double at_ms;  // when the busy span began, since the epoch given to start()
  double ms;     // its length
};

class StallMeter {
 public:
  // Stalls of at least `threshold_ms` are kept in the list (every span counts in the summary).
  StallMeter(uv_loop_t* loop, double threshold_ms);
  ~StallMeter();
  StallMeter(const StallMeter&) = delete;
  StallMeter& operator=(const StallMeter&) = delete;

  void start(std::uint64_t epoch_ns);
  // Closes the iteration in progress (from the last prepare to now) and stops measuring.
  void stop();

  Summary summary() const { return summarize(spans_ms_); }
  const std::vector<Stall>& stalls_over_threshold() const { return over_threshold_; }
  std::size_t iterations() const { return spans_ms_.size(); }
  double threshold_ms() const { return threshold_ms_; }

 private:
  static void on_prepare(uv_prepare_t* prepare);
  void close_iteration(std::uint64_t now_ns);

  uv_loop_t* loop_;
  uv_prepare_t* prepare_;
  double threshold_ms_;
  std::uint64_t epoch_ns_ = 0;
  std::uint64_t previous_ns_ = 0;       // the last prepare
  std::uint64_t previous_idle_ns_ = 0;  // uv_metrics_idle_time at the last prepare
  std::vector<double> spans_ms_;
  std::vector<Stall> over_threshold_;
};

}  // namespace stallbench
