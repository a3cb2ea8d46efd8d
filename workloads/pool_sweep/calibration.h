// What the queueing model needs to know about this machine, measured around a run: each class's
// service time with the pool otherwise idle (per step, since a read is four trips through the
// queue), how many cores CPU-bound threads can really use at once (fewer than the machine has
// when other work shares it), and how much later a small job completes when it arrives while the
// cores are full. Samples are kept, so calibrations before and after a run pool into one estimate:
// what else runs on a shared machine changes meanwhile.
#pragma once

#include <uv.h>

#include <vector>

#include "../pool/job_classes.h"

namespace stallbench {

struct AloneSamples {
  std::vector<std::vector<double>> steps;  // per job: each step's time on a thread
  std::vector<double> latencies;           // per job: submission to callback

  std::vector<double> step_ms() const;  // the median of each step
  double service_ms() const;            // their sum
  double latency_ms() const;            // the median latency
};

struct Calibration {
  std::vector<AloneSamples> alone;       // per class
  std::vector<double> capacity_trials;   // parallel capacity, one per trial
  std::vector<double> delay_trials;      // busy-cores delay, one per trial

  double effective_cores() const;        // the median trial
  double busy_cores_delay_ms() const;    // the mean trial
  void add(const Calibration& more);     // pool another calibration's samples
};

// Each class alone on the idle pool for about `budget_ms` (at least 3, at most 25 jobs, 10 ms apart), then
// the cores and the delay. Throws std::runtime_error if a job fails.
Calibration calibrate(uv_loop_t* loop, const std::vector<std::unique_ptr<JobClass>>& jobs, int cores, double budget_ms);

// CPU-bound threads running side by side, `cores` of them, against one alone: how many cores'
// worth of work they got done, between 1 and `cores`. On a quiet machine it is about `cores`.
double parallel_capacity(int cores);

// How much later a one-step job arriving on a timer completes while `cores` CPU-bound threads keep
// every core busy: the woken loop (and then the pool thread) must first get a core. On this
// project's development machines (gVisor) a timer wake-up waits for the running thread's time
// slice to end, while the hand-offs between the loop and a pool thread that follow are nearly
// free; what a small job pays once, when it arrives while the cores are full. `window_s` of
// arrivals with the cores idle, then as long with them full.
double busy_cores_delay_ms(uv_loop_t* loop, int cores, double window_s);

}  // namespace stallbench
