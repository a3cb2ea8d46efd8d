#include "open_loop.h"

#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <list>
#include <random>
#include <stdexcept>

#include "../common/machine.h"
#include "../common/uv_check.h"
#include "../pool/pool_canary.h"
#include "cpu_usage.h"

namespace stallbench {

std::vector<Arrival> arrival_schedule(const OpenLoopConfig& config) {
  std::vector<Arrival> arrivals;
  const double window_ns = config.window_s * 1e9;
  for (std::size_t c = 0; c < config.classes.size(); ++c) {
    if (config.classes[c].in_flight > 0) continue;
    std::mt19937_64 random(config.seed * 1'000'003 + c);
    std::exponential_distribution<double> gap(config.classes[c].rate_per_s / 1e9);
    for (double t = gap(random); t < window_ns; t += gap(random)) arrivals.push_back({static_cast<std::uint64_t>(t), c});
  }
  std::sort(arrivals.begin(), arrivals.end(), [](auto& a, auto& b) { return a.offset_ns < b.offset_ns; });
  return arrivals;
}

namespace {

// Paces arrivals with a timerfd (nanosecond deadlines on the clock uv_hrtime reads) watched by
// the loop, so jobs are submitted on the loop thread, as Node submits them, within microseconds
// of their scheduled time. Latency is measured from the scheduled time, so any lateness counts.
class Driver {
 public:
  Driver(uv_loop_t* loop, const OpenLoopConfig& config)
      : loop_(loop), config_(config), arrivals_(arrival_schedule(config)) {
    result_.classes.resize(config.classes.size());
    timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (timer_fd_ < 0) throw std::runtime_error(std::string("timerfd_create: ") + std::strerror(errno));
    uv_check(uv_poll_init(loop, &poll_, timer_fd_), "uv_poll_init(timerfd)");
    poll_.data = this;
  }

  OpenLoopResult run() {
    start_ns_ = uv_hrtime() + 2'000'000;  // a moment to arm everything before the first arrival
    window_end_ns_ = start_ns_ + static_cast<std::uint64_t>(config_.window_s * 1e9);
    deadline_ns_ = window_end_ns_ + static_cast<std::uint64_t>(config_.drain_s * 1e9);
    cpu_start_ = process_cpu_seconds();
    ticks_start_ = machine_ticks();
    uv_check(uv_poll_start(&poll_, UV_READABLE, [](uv_poll_t* p, int, int) {
               auto* self = static_cast<Driver*>(p->data);
               self->guarded([self] { self->tick(); });
             }), "uv_poll_start(timerfd)");
    arm(start_ns_);
    uv_run(loop_, UV_RUN_DEFAULT);
    if (!outstanding_.empty()) result_.errors.push_back("the loop stopped with jobs still out");
    return std::move(result_);
  }

 private:
  // A job stays out until both it and its canary are back: the canary's completion normally comes
  // first (it left the queue first), but its thread may be preempted while the job's runs.
  struct Job {
    std::size_t cls;
    std::uint64_t arrival_ns;
    JobHandle handle;
    uv_req_t* canary = nullptr;  // queued just before the job, until it has run
    double pool_wait_ms = -1;    // the canary's wait for a thread, once it ran
    bool over = false;           // the job is done (or cancelled)
    bool counted = false;        // ... and completed by the deadline: its wait counts
  };
  enum class Phase { arriving, draining, over };

  void arm(std::uint64_t at_ns) {
    itimerspec when{};
    when.it_value.tv_sec = static_cast<time_t>(at_ns / 1'000'000'000);
    when.it_value.tv_nsec = static_cast<long>(at_ns % 1'000'000'000);
    if (timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &when, nullptr) != 0)
      throw std::runtime_error(std::string("timerfd_settime: ") + std::strerror(errno));
  }

  void tick() {
    std::uint64_t expirations;
    while (::read(timer_fd_, &expirations, sizeof expirations) > 0) {
    }
    std::uint64_t now = uv_hrtime();
    if (phase_ == Phase::arriving && !closed_started_) start_closed_classes();
    while (phase_ == Phase::arriving && next_ < arrivals_.size() && start_ns_ + arrivals_[next_].offset_ns <= now) {
      submit(arrivals_[next_].cls, start_ns_ + arrivals_[next_].offset_ns);
      ++next_;
    }
    if (phase_ == Phase::arriving && now >= window_end_ns_) end_window(now);
    if (phase_ == Phase::draining && (now >= deadline_ns_ || outstanding_.empty())) return stop();
    if (phase_ == Phase::arriving)
      arm(next_ < arrivals_.size() ? std::min(start_ns_ + arrivals_[next_].offset_ns, window_end_ns_) : window_end_ns_);
    else if (phase_ == Phase::draining)
      arm(deadline_ns_);
  }

  void start_closed_classes() {
    closed_started_ = true;
    for (std::size_t c = 0; c < config_.classes.size(); ++c)
      for (int i = 0; i < config_.classes[c].in_flight; ++i) submit(c, uv_hrtime());
  }

  void submit(std::size_t cls, std::uint64_t arrival_ns) {
    ClassOutcome& outcome = result_.classes[cls];
    ++outcome.arrived;
    if (outstanding_.size() >= config_.max_outstanding) {
      ++outcome.dropped;
      return;
    }
    auto job = outstanding_.insert(outstanding_.end(), Job{cls, arrival_ns, {}});
    if (config_.canaries)
      job->canary = queue_canary(loop_, [this, job](double wait_ms, bool cancelled) {
        job->canary = nullptr;
        if (!cancelled) job->pool_wait_ms = wait_ms;
        guarded([&] { settle(job); });
      });
    config_.classes[cls].job->submit(loop_, job->handle, [this, job](JobResult r) {
      guarded([&] { done(job, std::move(r)); });
    });
  }

  // Runs a callback's work; an exception must not unwind through libuv's C frames, so it becomes
  // an error of the run and the run stops.
  template <typename Work>
  void guarded(Work work) {
    try {
      work();
    } catch (const std::exception& e) {
      result_.errors.push_back(e.what());
      if (phase_ != Phase::over) stop();
    }
  }

  void done(std::list<Job>::iterator job, JobResult r) {
    ClassOutcome& outcome = result_.classes[job->cls];
    std::size_t cls = job->cls;
    if (!r.error.empty()) result_.errors.push_back(config_.classes[cls].job->info().name + ": " + r.error);
    if (r.cancelled || r.completed_ns > deadline_ns_) {
      ++outcome.unfinished;
    } else if (r.error.empty()) {
      double latency = static_cast<double>(r.completed_ns - job->arrival_ns) / 1e6;
      double service = r.service_ms();
      outcome.latency_ms.push_back(latency);
      outcome.service_ms.push_back(service);
      outcome.wait_ms.push_back(std::max(0.0, latency - service));
      if (r.completed_ns <= window_end_ns_) ++outcome.completed_in_window;
      job->counted = true;
    }
    job->over = true;
    settle(job);
    if (phase_ == Phase::arriving && config_.classes[cls].in_flight > 0) submit(cls, uv_hrtime());
  }

  // Once the job and its canary are both back: the wait counts for a counted job, and the job is no
  // longer out.
  void settle(std::list<Job>::iterator job) {
    if (!job->over || job->canary != nullptr) return;
    if (job->counted && job->pool_wait_ms >= 0) result_.classes[job->cls].pool_wait_ms.push_back(job->pool_wait_ms);
    outstanding_.erase(job);
    if (phase_ == Phase::draining && outstanding_.empty()) stop();
  }

  void end_window(std::uint64_t now) {
    phase_ = Phase::draining;
    result_.window_s = static_cast<double>(now - start_ns_) / 1e9;
    double cpu = process_cpu_seconds() - cpu_start_;
    result_.cpu_util = cpu / (result_.window_s * available_cores());
    auto ticks = machine_ticks();
    if (ticks && ticks_start_ && ticks->total > ticks_start_->total)
      result_.machine_cpu_util = (ticks->busy - ticks_start_->busy) / (ticks->total - ticks_start_->total);
  }

  // The deadline passed (or nothing is out): cancel what is still queued; jobs already running
  // cannot be stopped, so the loop runs on until they return, and they count as unfinished.
  void stop() {
    phase_ = Phase::over;
    for (auto& job : outstanding_) {
      if (job.canary != nullptr) uv_cancel(job.canary);
      if (job.handle.queued != nullptr) uv_cancel(job.handle.queued);
    }
    uv_close(reinterpret_cast<uv_handle_t*>(&poll_), [](uv_handle_t* h) {
      auto* self = static_cast<Driver*>(h->data);
      ::close(self->timer_fd_);
      self->timer_fd_ = -1;
    });
  }

  uv_loop_t* loop_;
  const OpenLoopConfig& config_;
  std::vector<Arrival> arrivals_;
  std::size_t next_ = 0;
  std::list<Job> outstanding_;
  OpenLoopResult result_;
  Phase phase_ = Phase::arriving;
  bool closed_started_ = false;
  int timer_fd_ = -1;
  uv_poll_t poll_;
  std::uint64_t start_ns_ = 0, window_end_ns_ = 0, deadline_ns_ = 0;
  double cpu_start_ = 0;
  std::optional<MachineTicks> ticks_start_;
};

}  // namespace

OpenLoopResult run_open_loop(uv_loop_t* loop, const OpenLoopConfig& config) {
  for (const auto& c : config.classes)
    if (c.job == nullptr || (c.in_flight <= 0 && c.rate_per_s <= 0))
      throw std::invalid_argument("every class of an open-loop run needs a job and a rate or an in-flight count");
  Driver driver(loop, config);
  return driver.run();
}

}  // namespace stallbench
