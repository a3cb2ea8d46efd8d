#include "loop_utilization.h"

#include "../common/uv_check.h"
#include "../common/uv_clock.h"
#include "../common/uv_close.h"

namespace stallbench {

EluReading elu_now(uv_loop_t* loop, std::uint64_t loop_start_ns) {
  double idle = static_cast<double>(uv_metrics_idle_time(loop)) / 1e6;
  double active = static_cast<double>(uv_hrtime() - loop_start_ns) / 1e6 - idle;
  return {idle, active, idle + active > 0 ? active / (idle + active) : 0};
}

EluReading elu_between(const EluReading& current, const EluReading& previous) {
  double idle = current.idle_ms - previous.idle_ms;
  double active = current.active_ms - previous.active_ms;
  return {idle, active, idle + active > 0 ? active / (idle + active) : 0};
}

EluSampler::EluSampler(uv_loop_t* loop, double window_ms)
    : loop_(loop), timer_(new uv_timer_t), window_ms_(window_ms), loop_start_ns_(uv_hrtime()) {
  uv_check(uv_loop_configure(loop, UV_METRICS_IDLE_TIME), "uv_loop_configure(UV_METRICS_IDLE_TIME)");
  uv_check(uv_timer_init(loop, timer_), "uv_timer_init(elu sampler)");
  timer_->data = this;
  uv_unref(reinterpret_cast<uv_handle_t*>(timer_));
}

EluSampler::~EluSampler() {
  close_and_delete(timer_);
}

void EluSampler::start(std::uint64_t epoch_ns) {
  epoch_ns_ = epoch_ns;
  windows_.clear();
  first_ = last_ = elu_now(loop_, loop_start_ns_);
  auto period = static_cast<std::uint64_t>(window_ms_);
  uv_check(uv_timer_start(timer_, on_timer, period, period), "uv_timer_start(elu sampler)");
}

void EluSampler::stop() {
  if (!uv_is_active(reinterpret_cast<uv_handle_t*>(timer_))) return;
  // A last window much shorter than the others would be read in the middle of one callback and
  // say 1.0 whatever happened; it still counts in overall().
  EluReading now = elu_now(loop_, loop_start_ns_);
  if (now.idle_ms + now.active_ms - last_.idle_ms - last_.active_ms >= window_ms_ / 2) close_window();
  else last_ = now;
  uv_timer_stop(timer_);
}

void EluSampler::on_timer(uv_timer_t* timer) { static_cast<EluSampler*>(timer->data)->close_window(); }

void EluSampler::close_window() {
  EluReading now = elu_now(loop_, loop_start_ns_);
  windows_.push_back({ms_since(epoch_ns_), elu_between(now, last_).utilization});
  last_ = now;
}

Summary EluSampler::summary() const { return summarize_field(windows_, &EluWindow::utilization); }

}  // namespace stallbench
