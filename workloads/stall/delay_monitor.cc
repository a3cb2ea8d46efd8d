#include "delay_monitor.h"

#include <cmath>
#include <stdexcept>

#include "../common/uv_check.h"
#include "../common/uv_close.h"

namespace stallbench {

DelayMonitor::DelayMonitor(uv_loop_t* loop, double resolution_ms)
    : timer_(new uv_timer_t), resolution_ms_(resolution_ms) {
  // Node accepts whole milliseconds >= 1 (libuv timers have millisecond granularity).
  if (!(resolution_ms >= 1) || resolution_ms != std::floor(resolution_ms))
    throw std::invalid_argument("delay monitor resolution must be a whole number of ms >= 1");
  uv_check(uv_timer_init(loop, timer_), "uv_timer_init(delay monitor)");
  timer_->data = this;
  uv_unref(reinterpret_cast<uv_handle_t*>(timer_));
}

DelayMonitor::~DelayMonitor() {
  close_and_delete(timer_);
}

void DelayMonitor::start(std::uint64_t epoch_ns) {
  epoch_ns_ = epoch_ns;
  previous_ns_ = 0;
  samples_.clear();
  auto period = static_cast<std::uint64_t>(resolution_ms_);
  uv_check(uv_timer_start(timer_, on_timer, period, period), "uv_timer_start(delay monitor)");
}

void DelayMonitor::stop() { uv_timer_stop(timer_); }

void DelayMonitor::on_timer(uv_timer_t* timer) {
  auto* self = static_cast<DelayMonitor*>(timer->data);
  std::uint64_t now = uv_hrtime();
  // The first firing has no previous one to measure from (Node skips it the same way).
  if (self->previous_ns_ > 0 && now > self->previous_ns_)
    self->samples_.push_back({static_cast<double>(now - self->epoch_ns_) / 1e6,
                              static_cast<double>(now - self->previous_ns_) / 1e6});
  self->previous_ns_ = now;
}

Summary DelayMonitor::summary() const { return summarize_field(samples_, &DelaySample::delay_ms); }

}  // namespace stallbench
