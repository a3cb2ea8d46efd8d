// The open-loop driver: jobs of each class arrive at the pool at random times (Poisson, at the
// class's rate) for a fixed window, whether or not earlier jobs have finished, because a closed
// loop (submit, wait, submit) slows its own arrivals when the pool is slow and so hides the
// queueing it should measure. A class may instead keep N jobs in flight (a closed background
// load, as in seed 000). After the window, jobs still out get a drain period; what has not
// finished by then is counted as unfinished (queued work is cancelled), never silently dropped.
// With `canaries`, a no-op canary (pool_canary.h) is queued immediately before every job, as the Node
// runner does with its Node-API canary: its wait is the job's first wait for a thread, measured the
// same way in both runtimes.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../pool/job_classes.h"

namespace stallbench {

struct LoadClass {
  JobClass* job = nullptr;
  double rate_per_s = 0;  // open: Poisson arrivals
  int in_flight = 0;      // closed: jobs kept in flight (used when > 0)
};

struct OpenLoopConfig {
  std::vector<LoadClass> classes;
  double window_s = 10;            // arrivals happen in [0, window)
  double drain_s = 5;              // completions until window + drain still count
  std::uint64_t seed = 1;          // the arrival times are a function of the seed
  std::size_t max_outstanding = 5000;  // arrivals beyond this many jobs out are dropped (memory bound)
  bool canaries = false;           // a canary before every job (the calibration's probes run without)
};

struct ClassOutcome {
  // One value per job completed by the deadline, in completion order. latency = queue wait +
  // service: latency runs from the arrival to the loop running the job's last callback; service
  // is the time its steps held pool threads; the rest is waiting (in libuv's queue, and for the
  // loop thread to run the callback between steps). pool_wait: the job's canary's wait for a
  // thread (submission to start), for jobs completed by the deadline; empty without canaries.
  std::vector<double> latency_ms, wait_ms, service_ms, pool_wait_ms;
  std::int64_t arrived = 0;              // arrivals (or, closed, submissions) in the window
  std::int64_t dropped = 0;              // arrivals not submitted: max_outstanding reached
  std::int64_t completed_in_window = 0;  // completions inside the window: the throughput
  std::int64_t unfinished = 0;           // submitted but not completed by the deadline
};

struct OpenLoopResult {
  std::vector<ClassOutcome> classes;
  double window_s = 0;          // as measured
  double cpu_util = 0;          // this process's CPU time in the window / (window * available cores)
  double machine_cpu_util = -1; // every process's, from /proc/stat; -1 when unreadable
  std::vector<std::string> errors;  // failed steps and wrong answers (the run is then wrong)
};

OpenLoopResult run_open_loop(uv_loop_t* loop, const OpenLoopConfig& config);

struct Arrival {
  std::uint64_t offset_ns;  // since the window opened
  std::size_t cls;          // index into config.classes
};

// Every open class's Poisson arrivals in [0, window), merged in time order: a function of the seed
// and the rates alone, so runs with the same seed (and another runtime) get the same arrivals.
std::vector<Arrival> arrival_schedule(const OpenLoopConfig& config);

}  // namespace stallbench
