// A queueing model of libuv's pool, to predict each class's latency at a pool size from what one
// job costs alone and how often jobs arrive: a tool for sizing machines that are not at hand, so
// its error against measurement is reported beside every prediction.
//
// The pool is an M/G/c queue (Poisson arrivals, c threads, one FIFO queue; waiting by the
// Allen-Cunneen approximation, exact for M/G/1) with three corrections for what libuv and the
// machine do:
//   - CPU sharing: when more threads compute than there are cores, each runs slower. Every step's
//     CPU part is stretched by the expected number of computing threads per core, as seen by a
//     job in service, solved as a fixed point (more stretching, more busy threads). And a job
//     arriving while every core computes completes later by the delay measured for that case
//     (calibration.h: busy_cores_delay_ms), weighted by the share of time the cores are all busy.
//   - Slow I/O: getaddrinfo/getnameinfo share the threads with everything else (their long holds
//     lengthen everyone's waits) but wait in a queue of their own served by at most
//     (threads+1)/2 threads, after first passing through the main queue like any request; once
//     they need more than that, they keep that many threads and the rest serve the others.
//   - Several steps: a file read is four trips through the queue. A later step waits only for
//     what arrived during the step before and queued ahead of it, so its wait is a share (the
//     utilisation) of the previous one: waits of one job's steps go together.
// A class kept in flight (xN: a closed background load) holds min(N, threads) threads; when it
// holds them all, other jobs get a thread only when its jobs finish, in waves of one job's time;
// and when more of its jobs are queued than running, lookups start only once per pass of libuv's
// marker through that queue, so they starve.
// When arrivals outpace the pool the queue grows for the whole run; the model then follows the
// backlog (a fluid approximation) over the arrival window and the drain period after it.
// Beside latency it predicts each class's first wait for a thread, what a no-op canary queued just
// before the job waits (pool_canary.h): the shared queue's wait (a lookup's canary too: it is not
// slow I/O), or with a class holding every thread, the wait for the current wave to end. It is the
// one wait measured the same way in C++ and in Node, so the model's error can be read from waits
// rather than from latencies a runtime's own overheads are part of. A thread's wake-up is not in it.
#pragma once

#include <string>
#include <vector>

namespace stallbench {

struct ModelClass {
  std::string name;
  double rate_per_s = 0;        // open: Poisson arrivals per second
  int in_flight = 0;            // closed: jobs always in flight (at most one such class)
  std::vector<double> step_ms;  // each step's time on a thread alone (one entry per trip through the queue)
  double cpu_share = 1;         // the part of that time that needs a core (the rest is waiting, as a slow resolver)
  double overhead_ms = 0;       // latency alone beyond the steps' time on threads: waking a thread, the loop's callbacks
  bool slow_io = false;         // getaddrinfo/getnameinfo: libuv's capped queue
};

struct ModelInput {
  std::vector<ModelClass> classes;
  int threads = 4;
  double cores = 2;      // cores the pool threads can use at once
  double busy_cores_delay_ms = 0;  // how much later a small job completes arriving while every core computes
  double window_s = 10;  // how long arrivals last
  double drain_s = 5;    // how long after that completions still count
};

struct ClassPrediction {
  double p50_ms = 0, p99_ms = 0;  // latency, arrival to completion
  double mean_wait_ms = 0;
  double pool_wait_p50_ms = 0, pool_wait_p99_ms = 0;  // the first trip's wait for a thread
  double service_ms = 0;          // one job's time on threads, stretched by CPU sharing
  double throughput_per_s = 0;
  bool saturated = false;         // the class's queue grows for the whole run
};

struct Prediction {
  std::vector<ClassPrediction> classes;
  double stretch = 1;             // the CPU-sharing factor on CPU time
  double cores_busy = 0;          // CPU in use, in cores
};

Prediction predict(const ModelInput& input);

// Probability that an arrival waits in an M/M/c queue with `load` = arrival rate x service time
// (Erlang's C formula); `servers` may be fractional (interpolated), 1 when load >= servers.
double erlang_c(double servers, double load);

// The q-quantile of a wait that is 0 with probability 1 - p and otherwise exponential with mean
// `mean_ms`.
double wait_quantile(double p, double mean_ms, double q);

}  // namespace stallbench
