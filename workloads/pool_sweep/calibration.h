// What the queueing model needs to know about this machine, measured just before a run: each
// class's service time with the pool otherwise idle (per step, since a read is four trips
// through the queue), and how many cores CPU-bound threads can really use at once right now
// (fewer than the machine has when other work shares it).
#pragma once

#include <uv.h>

#include <vector>

#include "../pool/job_classes.h"

namespace stallbench {

struct AloneTimes {
  std::vector<double> step_ms;  // median time on a thread of each step
  double service_ms = 0;        // their sum
  double latency_ms = 0;        // median submission-to-callback time of one job alone
  int jobs = 0;                 // how many were timed
};

// Runs jobs of `job` one at a time on the idle pool for about `budget_ms` (at least 3, at most
// 15 jobs) and returns the medians. Throws std::runtime_error if a job fails.
AloneTimes time_alone(uv_loop_t* loop, JobClass& job, double budget_ms = 250);

// CPU-bound threads running side by side, `cores` of them, against one alone: how many cores'
// worth of work they got done, between 1 and `cores`. On a quiet machine it is about `cores`.
double parallel_capacity(int cores);

// How much later a one-step job arriving on a timer completes while `cores` CPU-bound threads keep
// every core busy: the woken loop (and then the pool thread) must first get a core. On this
// project's development machines (gVisor) a timer wake-up waits for the running thread's time
// slice to end, while the hand-offs between the loop and a pool thread that follow are nearly
// free; what a small job pays once, when it arrives while the cores are full.
double busy_cores_delay_ms(uv_loop_t* loop, int cores);

}  // namespace stallbench
