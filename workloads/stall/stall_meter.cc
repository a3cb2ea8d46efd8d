#include "stall_meter.h"

#include "../common/uv_check.h"
#include "../common/uv_close.h"

namespace stallbench {

StallMeter::StallMeter(uv_loop_t* loop, double threshold_ms)
    : loop_(loop), prepare_(new uv_prepare_t), threshold_ms_(threshold_ms) {
  uv_check(uv_loop_configure(loop, UV_METRICS_IDLE_TIME), "uv_loop_configure(UV_METRICS_IDLE_TIME)");
  uv_check(uv_prepare_init(loop, prepare_), "uv_prepare_init(stall meter)");
  prepare_->data = this;
  uv_unref(reinterpret_cast<uv_handle_t*>(prepare_));
}

StallMeter::~StallMeter() {
  close_and_delete(prepare_);
}

void StallMeter::start(std::uint64_t epoch_ns) {
  epoch_ns_ = epoch_ns;
  spans_ms_.clear();
  over_threshold_.clear();
  // The iteration in progress (the caller's, setting up the experiment) is not measured: the
  // first prepare opens the first measured iteration.
  previous_ns_ = 0;
  uv_check(uv_prepare_start(prepare_, on_prepare), "uv_prepare_start(stall meter)");
}

void StallMeter::stop() {
  if (!uv_is_active(reinterpret_cast<uv_handle_t*>(prepare_))) return;
  if (previous_ns_ != 0) close_iteration(uv_hrtime());
  uv_prepare_stop(prepare_);
}

void StallMeter::on_prepare(uv_prepare_t* prepare) {
  static_cast<StallMeter*>(prepare->data)->close_iteration(uv_hrtime());
}

void StallMeter::close_iteration(std::uint64_t now_ns) {
  std::uint64_t idle_ns = uv_metrics_idle_time(loop_);
  if (previous_ns_ == 0) {  // the first prepare: measuring starts here
    previous_ns_ = now_ns;
    previous_idle_ns_ = idle_ns;
    return;
  }
  std::uint64_t waited = idle_ns - previous_idle_ns_;
  std::uint64_t elapsed = now_ns - previous_ns_;
  std::uint64_t busy = elapsed > waited ? elapsed - waited : 0;
  double ms = static_cast<double>(busy) / 1e6;
  spans_ms_.push_back(ms);
  if (ms >= threshold_ms_)
    over_threshold_.push_back({static_cast<double>(previous_ns_ + waited - epoch_ns_) / 1e6, ms});
  previous_ns_ = now_ns;
  previous_idle_ns_ = idle_ns;
}

}  // namespace stallbench
