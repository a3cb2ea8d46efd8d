// Node's perf_hooks.monitorEventLoopDelay, rebuilt on libuv: a repeating timer every
// `resolution` ms that records the raw gap between consecutive firings (Node's
// ELDHistogram::RecordDelta). A stall that ends before the next firing is due is never seen, and
// an idle loop reads about the resolution itself, not zero: the gap includes the timer's own
// period. That is the resolution artefact of the seed (an idle process "shows" 10-11 ms at
// resolution 10), kept on purpose so the numbers compare with Node's.
#pragma once

#include <uv.h>

#include <cstdint>
#include <vector>

#include "../common/summary.h"

namespace stallbench {

struct DelaySample {
  double at_ms;     // when the timer fired, since the epoch given to start()
  double delay_ms;  // the gap since the previous firing (Node's histogram value)
};

class DelayMonitor {
 public:
  DelayMonitor(uv_loop_t* loop, double resolution_ms);
  ~DelayMonitor();
  DelayMonitor(const DelayMonitor&) = delete;
  DelayMonitor& operator=(const DelayMonitor&) = delete;

  // Starts sampling; times are reported relative to `epoch_ns` (uv_hrtime). The timer is unref'd,
  // as Node's is, so it never keeps the loop alive by itself.
  void start(std::uint64_t epoch_ns);
  void stop();

  double resolution_ms() const { return resolution_ms_; }
  const std::vector<DelaySample>& samples() const { return samples_; }
  Summary summary() const;

 private:
  static void on_timer(uv_timer_t* timer);

  uv_timer_t* timer_;
  double resolution_ms_;
  std::uint64_t epoch_ns_ = 0;
  std::uint64_t previous_ns_ = 0;
  std::vector<DelaySample> samples_;
};

}  // namespace stallbench
