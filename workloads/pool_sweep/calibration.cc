#include "calibration.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "../common/percentile.h"
#include "../common/uv_check.h"
#include "../pool/pbkdf2_job.h"
#include "open_loop.h"

namespace stallbench {

namespace {

// The loop sleeps this long between alone jobs, as it does between arrivals in a run: a job
// submitted the moment the previous one completes finds the pool thread and the loop just awake,
// and on a virtualised machine waking them after a pause costs far more than a hand-off.
constexpr double kAloneGapMs = 10;

AloneSamples time_alone(uv_loop_t* loop, JobClass& job, double budget_ms) {
  AloneSamples samples;
  double spent = 0;
  while (samples.latencies.size() < 25 && (samples.latencies.size() < 3 || spent < budget_ms)) {
    idle_loop_for(loop, kAloneGapMs);
    spent += kAloneGapMs;
    JobHandle handle;
    JobResult result;
    std::uint64_t submitted = uv_hrtime();
    job.submit(loop, handle, [&](JobResult r) { result = std::move(r); });
    run_loop(loop);
    if (!result.error.empty() || result.cancelled)
      throw std::runtime_error(job.info().name + " alone: " + (result.error.empty() ? "cancelled" : result.error));
    double latency = static_cast<double>(result.completed_ns - submitted) / 1e6;
    samples.latencies.push_back(latency);
    samples.steps.push_back(result.step_service_ms);
    spent += latency;
  }
  return samples;
}

double mean(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

}  // namespace

std::vector<double> AloneSamples::step_ms() const {
  std::vector<double> medians;
  for (std::size_t s = 0; !steps.empty() && s < steps.front().size(); ++s) {
    std::vector<double> step;
    for (const auto& job : steps)
      if (s < job.size()) step.push_back(job[s]);
    medians.push_back(median(step));
  }
  return medians;
}

double AloneSamples::service_ms() const {
  auto steps = step_ms();
  return std::accumulate(steps.begin(), steps.end(), 0.0);
}

double AloneSamples::latency_ms() const { return median(latencies); }

double Calibration::effective_cores() const { return median(capacity_trials); }

double Calibration::busy_cores_delay_ms() const { return mean(delay_trials); }

void Calibration::add(const Calibration& more) {
  for (std::size_t i = 0; i < alone.size() && i < more.alone.size(); ++i) {
    alone[i].steps.insert(alone[i].steps.end(), more.alone[i].steps.begin(), more.alone[i].steps.end());
    alone[i].latencies.insert(alone[i].latencies.end(), more.alone[i].latencies.begin(), more.alone[i].latencies.end());
  }
  capacity_trials.insert(capacity_trials.end(), more.capacity_trials.begin(), more.capacity_trials.end());
  delay_trials.insert(delay_trials.end(), more.delay_trials.begin(), more.delay_trials.end());
}

Calibration calibrate(uv_loop_t* loop, const std::vector<std::unique_ptr<JobClass>>& jobs, int cores, double budget_ms) {
  Calibration c;
  for (const auto& job : jobs) c.alone.push_back(time_alone(loop, *job, budget_ms));
  c.capacity_trials.push_back(parallel_capacity(cores));
  c.delay_trials.push_back(busy_cores_delay_ms(loop, cores, std::clamp(budget_ms / 1000, 0.1, 0.3)));
  return c;
}

double parallel_capacity(int cores) {
  if (cores <= 1) return 1;
  Pbkdf2Params unit;
  unit.iterations = 5'000;  // a few milliseconds: long enough to time, short enough to repeat
  constexpr int units = 6;
  auto seconds = [](auto&& work) {
    std::uint64_t start = uv_hrtime();
    work();
    return static_cast<double>(uv_hrtime() - start) / 1e9;
  };
  std::vector<double> ratios;
  for (int trial = 0; trial < 3; ++trial) {
    double alone = seconds([&] { for (int i = 0; i < units; ++i) pbkdf2(unit); });
    double together = seconds([&] {
      std::vector<std::thread> threads;
      for (int t = 0; t < cores; ++t) threads.emplace_back([&] { for (int i = 0; i < units; ++i) pbkdf2(unit); });
      for (auto& t : threads) t.join();
    });
    ratios.push_back(cores * alone / together);
  }
  return std::clamp(median(ratios), 1.0, static_cast<double>(cores));
}

double busy_cores_delay_ms(uv_loop_t* loop, int cores, double window_s) {
  // Timer-paced arrivals of one-step jobs, as in a run: back-to-back round trips would hand the
  // woken thread a core at once and hide the delay. The mean, not the median: a wake-up often
  // gets a core at once and sometimes waits for a whole time slice.
  auto stat = make_job_class("stat", 0);
  OpenLoopConfig probe{.classes = {{stat.get(), 300}}, .window_s = window_s, .drain_s = 1, .seed = 99};
  auto mean_latency = [&] { return mean(run_open_loop(loop, probe).classes[0].latency_ms); };
  double idle = mean_latency();
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  Pbkdf2Params unit;
  unit.iterations = 20'000;
  for (int t = 0; t < cores; ++t)
    spinners.emplace_back([&] {
      while (!stop.load()) pbkdf2(unit);
    });
  double busy = mean_latency();
  stop = true;
  for (auto& t : spinners) t.join();
  return std::max(0.0, busy - idle);
}

}  // namespace stallbench
