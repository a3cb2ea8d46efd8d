#include "sweep_run.h"

#include <algorithm>
#include <stdexcept>

#include "../common/machine.h"
#include "../common/percentile.h"
#include "calibration.h"
#include "open_loop.h"
#include "pool_model.h"

namespace stallbench {
namespace {

Percentiles percentiles(const std::vector<double>& values) {
  return {nearest_rank(values, 0.50), nearest_rank(values, 0.95), nearest_rank(values, 0.99), nearest_rank(values, 1.0)};
}

}  // namespace

double drain_seconds(double window_s, double longest_alone_ms) {
  return std::clamp(std::max(window_s / 2, 5 * longest_alone_ms / 1000), 1.0, 30.0);
}

ClassSummary summarize(const std::string& name, const ClassOutcome& o, double window_s) {
  ClassSummary s;
  s.name = name;
  s.latency_ms = percentiles(o.latency_ms);
  s.wait_ms = percentiles(o.wait_ms);
  s.service_ms = percentiles(o.service_ms);
  s.pool_wait_ms = percentiles(o.pool_wait_ms);
  s.throughput_per_s = static_cast<double>(o.completed_in_window) / window_s;
  s.offered_per_s = static_cast<double>(o.arrived) / window_s;
  s.completed = static_cast<std::int64_t>(o.latency_ms.size());
  s.dropped = o.dropped;
  s.unfinished = o.unfinished;
  return s;
}

void add_predictions(SweepRun& out, const std::vector<ModelClass>& classes, int threads, double window_s) {
  ModelInput model{.classes = classes, .threads = threads, .cores = out.effective_cores,
                   .busy_cores_delay_ms = out.busy_cores_delay_ms, .window_s = window_s, .drain_s = out.drain_s};
  Prediction predicted = predict(model);
  ModelInput enough = model;
  enough.cores = threads + 1;  // a machine with a core for every thread (and the loop)
  Prediction uncontended = predict(enough);
  out.predicted_cpu_util = predicted.cores_busy / out.cores;
  for (std::size_t i = 0; i < out.classes.size(); ++i) {
    out.classes[i].predicted_p50_ms = predicted.classes[i].p50_ms;
    out.classes[i].predicted_p99_ms = predicted.classes[i].p99_ms;
    out.classes[i].predicted_throughput_per_s = predicted.classes[i].throughput_per_s;
    out.classes[i].predicted_enough_cores_p50_ms = uncontended.classes[i].p50_ms;
    out.classes[i].predicted_pool_wait_p50_ms = predicted.classes[i].pool_wait_p50_ms;
    out.classes[i].predicted_pool_wait_p99_ms = predicted.classes[i].pool_wait_p99_ms;
  }
}

MixRunner::MixRunner(uv_loop_t* loop, const Mix& mix, int threads) : loop_(loop), mix_(mix), threads_(threads) {
  for (const auto& entry : mix.entries) jobs_.push_back(make_job_class(entry.job_class, entry.size));
}

SweepRun MixRunner::run(double window_s, std::uint64_t seed) {
  SweepRun out;
  out.cores = available_cores();
  // Calibration costs a small share of the run: 4% of the window per class, 0.1-0.4 s.
  const double budget_ms = std::clamp(window_s * 40, 100.0, 400.0);
  Calibration calibration = calibrate(loop_, jobs_, out.cores, budget_ms);
  double longest = 0;
  for (const auto& a : calibration.alone) longest = std::max(longest, a.service_ms());
  out.drain_s = drain_seconds(window_s, longest);

  OpenLoopConfig config{.window_s = window_s, .drain_s = out.drain_s, .seed = seed, .canaries = true};
  for (std::size_t i = 0; i < jobs_.size(); ++i)
    config.classes.push_back({jobs_[i].get(), mix_.entries[i].rate_per_s, mix_.entries[i].in_flight});
  OpenLoopResult measured = run_open_loop(loop_, config);
  if (!measured.errors.empty())
    throw std::runtime_error(measured.errors.front() + (measured.errors.size() > 1 ? " (and " +
                             std::to_string(measured.errors.size() - 1) + " more failures)" : ""));

  // The machine may be shared, and what else runs changes during a run: the model's inputs pool
  // a calibration before the run with one after it.
  calibration.add(calibrate(loop_, jobs_, out.cores, budget_ms));
  out.effective_cores = calibration.effective_cores();
  out.busy_cores_delay_ms = calibration.busy_cores_delay_ms();
  std::vector<ModelClass> model;
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const MixEntry& entry = mix_.entries[i];
    const AloneSamples& alone = calibration.alone[i];
    double service = alone.service_ms();
    double held = std::min(jobs_[i]->held_ms(), service);
    model.push_back({.name = entry.job_class,
                     .rate_per_s = entry.rate_per_s,
                     .in_flight = entry.in_flight,
                     .step_ms = alone.step_ms(),
                     .cpu_share = service > 0 ? 1 - held / service : 1,
                     .overhead_ms = std::max(0.0, alone.latency_ms() - service),
                     .slow_io = jobs_[i]->info().kind == PoolKind::slow_io});
    out.classes.push_back(summarize(entry.job_class, measured.classes[i], measured.window_s));
    out.classes.back().alone_ms = service;
  }
  out.cpu_util = measured.cpu_util;
  out.machine_cpu_util = measured.machine_cpu_util;
  add_predictions(out, model, threads_, window_s);
  return out;
}

}  // namespace stallbench
