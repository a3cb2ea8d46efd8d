#include "calibration.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "../common/uv_check.h"
#include "../pool/pbkdf2_job.h"
#include "open_loop.h"

namespace stallbench {

AloneTimes time_alone(uv_loop_t* loop, JobClass& job, double budget_ms) {
  std::vector<JobResult> results;
  std::vector<double> latencies;
  double spent = 0;
  while (results.size() < 15 && (results.size() < 3 || spent < budget_ms)) {
    JobHandle handle;
    JobResult result;
    std::uint64_t submitted = uv_hrtime();
    job.submit(loop, handle, [&](JobResult r) { result = std::move(r); });
    run_loop(loop);
    if (!result.error.empty() || result.cancelled)
      throw std::runtime_error(job.info().name + " alone: " + (result.error.empty() ? "cancelled" : result.error));
    double latency = static_cast<double>(result.completed_ns - submitted) / 1e6;
    latencies.push_back(latency);
    spent += latency;
    results.push_back(std::move(result));
  }
  AloneTimes times;
  times.jobs = static_cast<int>(results.size());
  std::size_t steps = results.front().step_service_ms.size();
  for (std::size_t s = 0; s < steps; ++s) {
    std::vector<double> step;
    for (const auto& r : results)
      if (s < r.step_service_ms.size()) step.push_back(r.step_service_ms[s]);
    times.step_ms.push_back(nearest_rank(step, 0.5));
    times.service_ms += times.step_ms.back();
  }
  times.latency_ms = nearest_rank(latencies, 0.5);
  return times;
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
  return std::clamp(nearest_rank(ratios, 0.5), 1.0, static_cast<double>(cores));
}

double busy_cores_delay_ms(uv_loop_t* loop, int cores) {
  // Timer-paced arrivals of one-step jobs, as in a run: back-to-back round trips would hand the
  // woken thread a core at once and hide the delay. The mean, not the median: a wake-up often
  // gets a core at once and sometimes waits for a whole time slice.
  auto stat = make_job_class("stat", 0);
  OpenLoopConfig probe{.classes = {{stat.get(), 300}}, .window_s = 0.3, .drain_s = 1, .seed = 99};
  auto mean_latency = [&] {
    auto latency = run_open_loop(loop, probe).classes[0].latency_ms;
    return latency.empty() ? 0.0 : std::accumulate(latency.begin(), latency.end(), 0.0) / static_cast<double>(latency.size());
  };
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
