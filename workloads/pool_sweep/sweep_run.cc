#include "sweep_run.h"

#include <algorithm>
#include <stdexcept>

#include "../common/machine.h"
#include "calibration.h"
#include "open_loop.h"
#include "pool_model.h"

namespace stallbench {
namespace {

Percentiles percentiles(const std::vector<double>& values) {
  return {nearest_rank(values, 0.50), nearest_rank(values, 0.95), nearest_rank(values, 0.99), nearest_rank(values, 1.0)};
}

// Long enough for work queued at a sustainable load to finish, bounded so an overloaded run ends.
double drain_seconds(double window_s, const std::vector<AloneTimes>& alone) {
  double longest = 0;
  for (const auto& a : alone) longest = std::max(longest, a.service_ms / 1000);
  return std::clamp(std::max(window_s / 2, 5 * longest), 1.0, 30.0);
}

// The machine may be shared, and what else runs changes during a run: the model's inputs are the
// mean of a calibration just before the run and one just after it.
struct Calibration {
  std::vector<AloneTimes> alone;
  double effective_cores = 0;
  double busy_cores_delay_ms = 0;
};

Calibration calibrate(uv_loop_t* loop, std::vector<std::unique_ptr<JobClass>>& jobs, int cores) {
  Calibration c;
  for (auto& job : jobs) c.alone.push_back(time_alone(loop, *job));
  c.effective_cores = parallel_capacity(cores);
  c.busy_cores_delay_ms = busy_cores_delay_ms(loop, cores);
  return c;
}

Calibration mean_of(const Calibration& a, const Calibration& b) {
  Calibration m = a;
  m.effective_cores = (a.effective_cores + b.effective_cores) / 2;
  m.busy_cores_delay_ms = (a.busy_cores_delay_ms + b.busy_cores_delay_ms) / 2;
  for (std::size_t i = 0; i < m.alone.size(); ++i) {
    AloneTimes& x = m.alone[i];
    const AloneTimes& y = b.alone[i];
    for (std::size_t s = 0; s < x.step_ms.size() && s < y.step_ms.size(); ++s) x.step_ms[s] = (x.step_ms[s] + y.step_ms[s]) / 2;
    x.service_ms = (x.service_ms + y.service_ms) / 2;
    x.latency_ms = (x.latency_ms + y.latency_ms) / 2;
  }
  return m;
}

}  // namespace

MixRunner::MixRunner(uv_loop_t* loop, const Mix& mix, int threads) : loop_(loop), mix_(mix), threads_(threads) {
  for (const auto& entry : mix.entries) jobs_.push_back(make_job_class(entry.job_class, entry.size));
}

SweepRun MixRunner::run(double window_s, std::uint64_t seed) {
  SweepRun out;
  out.cores = available_cores();
  Calibration before = calibrate(loop_, jobs_, out.cores);
  out.drain_s = drain_seconds(window_s, before.alone);

  OpenLoopConfig config{.window_s = window_s, .drain_s = out.drain_s, .seed = seed};
  for (std::size_t i = 0; i < jobs_.size(); ++i)
    config.classes.push_back({jobs_[i].get(), mix_.entries[i].rate_per_s, mix_.entries[i].in_flight});
  OpenLoopResult measured = run_open_loop(loop_, config);
  if (!measured.errors.empty())
    throw std::runtime_error(measured.errors.front() + (measured.errors.size() > 1 ? " (and " +
                             std::to_string(measured.errors.size() - 1) + " more failures)" : ""));

  Calibration calibration = mean_of(before, calibrate(loop_, jobs_, out.cores));
  const auto& alone = calibration.alone;
  out.effective_cores = calibration.effective_cores;
  out.busy_cores_delay_ms = calibration.busy_cores_delay_ms;
  ModelInput model{.threads = threads_, .cores = out.effective_cores, .busy_cores_delay_ms = out.busy_cores_delay_ms,
                   .window_s = window_s, .drain_s = out.drain_s};
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const MixEntry& entry = mix_.entries[i];
    double held = std::min(jobs_[i]->held_ms(), alone[i].service_ms);
    model.classes.push_back({.name = entry.job_class,
                             .rate_per_s = entry.rate_per_s,
                             .in_flight = entry.in_flight,
                             .step_ms = alone[i].step_ms,
                             .cpu_share = alone[i].service_ms > 0 ? 1 - held / alone[i].service_ms : 1,
                             .overhead_ms = std::max(0.0, alone[i].latency_ms - alone[i].service_ms),
                             .slow_io = jobs_[i]->info().kind == PoolKind::slow_io});
  }
  Prediction predicted = predict(model);
  ModelInput enough = model;
  enough.cores = threads_ + 1;  // a machine with a core for every thread (and the loop)
  Prediction uncontended = predict(enough);

  out.cpu_util = measured.cpu_util;
  out.machine_cpu_util = measured.machine_cpu_util;
  out.predicted_cpu_util = predicted.cores_busy / out.cores;
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const ClassOutcome& o = measured.classes[i];
    ClassSummary s;
    s.name = mix_.entries[i].job_class;
    s.latency_ms = percentiles(o.latency_ms);
    s.wait_ms = percentiles(o.wait_ms);
    s.service_ms = percentiles(o.service_ms);
    s.throughput_per_s = static_cast<double>(o.completed_in_window) / measured.window_s;
    s.offered_per_s = static_cast<double>(o.arrived) / measured.window_s;
    s.completed = static_cast<std::int64_t>(o.latency_ms.size());
    s.dropped = o.dropped;
    s.unfinished = o.unfinished;
    s.alone_ms = alone[i].service_ms;
    s.predicted_p50_ms = predicted.classes[i].p50_ms;
    s.predicted_p99_ms = predicted.classes[i].p99_ms;
    s.predicted_throughput_per_s = predicted.classes[i].throughput_per_s;
    s.predicted_enough_cores_p50_ms = uncontended.classes[i].p50_ms;
    out.classes.push_back(s);
  }
  return out;
}

}  // namespace stallbench
