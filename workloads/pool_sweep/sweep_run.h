// One measured run of a mix at the pool size this process has, and the model's prediction for
// it: calibrate (each class alone, and how many cores are really free), run the open loop,
// summarise each class, predict each class from the calibration alone. What a pool-sweep
// benchmark repetition reports.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../pool/job_classes.h"
#include "mix.h"

namespace stallbench {

struct Percentiles {
  double p50 = 0, p95 = 0, p99 = 0, max = 0;
};

struct ClassSummary {
  std::string name;
  Percentiles latency_ms, wait_ms, service_ms;
  // The job's first wait for a thread, from its canary (pool_canary.h; in Node the Node-API one):
  // the one wait measured the same way in every runtime.
  Percentiles pool_wait_ms;
  // What was seen, per class. C++ times every step on its thread: the split of latency into
  // queue wait and service is known for every class. Node sees only a job's latency and, with the
  // canary, when its first trip got a thread: the split is known where that was the whole wait
  // (JobClassInfo::first_wait_is_whole_wait), and the pool wait only with the canary addon.
  bool split_measured = true, pool_wait_measured = true;
  double throughput_per_s = 0, offered_per_s = 0;
  std::int64_t completed = 0, dropped = 0, unfinished = 0;
  double alone_ms = 0;  // one job's service time with the pool otherwise idle
  double predicted_p50_ms = 0, predicted_p99_ms = 0, predicted_throughput_per_s = 0;
  double predicted_enough_cores_p50_ms = 0;  // the same model with a core for every thread
  double predicted_pool_wait_p50_ms = 0, predicted_pool_wait_p99_ms = 0;  // the model's first wait for a thread
};

struct SweepRun {
  std::vector<ClassSummary> classes;
  double cpu_util = 0, machine_cpu_util = -1, predicted_cpu_util = 0;
  double effective_cores = 0;      // calibration.h, before and after the run
  double busy_cores_delay_ms = 0;  // likewise
  int cores = 0;
  double drain_s = 0;
};

struct ClassOutcome;
struct ModelClass;

// Latency percentiles, throughput and counts of one class's outcome over a window of `window_s`.
ClassSummary summarize(const std::string& name, const ClassOutcome& outcome, double window_s);

// Long enough for work queued at a sustainable load to finish, bounded so an overloaded run ends.
double drain_seconds(double window_s, double longest_alone_ms);

// The queueing model's prediction for each class of `out` (same order as `model`), from the
// machine's calibration already in `out` (cores, effective cores, busy-cores delay, drain).
void add_predictions(SweepRun& out, const std::vector<ModelClass>& model, int threads, double window_s);

class MixRunner {
 public:
  // Prepares every class of `mix` (inputs and reference answers) on `loop`, whose pool has
  // `threads` threads (UV_THREADPOOL_SIZE, read by libuv once per process).
  MixRunner(uv_loop_t* loop, const Mix& mix, int threads);

  // Throws std::runtime_error when a job failed or answered wrongly.
  SweepRun run(double window_s, std::uint64_t seed);

 private:
  uv_loop_t* loop_;
  Mix mix_;
  int threads_;
  std::vector<std::unique_ptr<JobClass>> jobs_;
};

}  // namespace stallbench
