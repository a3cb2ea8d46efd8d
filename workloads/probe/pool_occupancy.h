// How busy libuv's thread pool is, read from libuv itself (libuv_pool_symbols.h): how many threads
// it started, how many are idle, and how many jobs wait in its queue, all under libuv's own lock,
// so they agree. A thread woken for new work counts as idle until it runs (libuv decrements
// idle_threads only once the woken thread holds the lock), so a job that waits while a thread is
// idle waits for a core, not for a thread; unless it is a lookup libuv holds back (pool_queue.h).
//
// A sampler thread reads it at random instants (a Poisson process, as the canaries are submitted:
// Poisson samples see time averages) and sums each period: the mean number of busy threads (the
// pool's utilisation) and the mean number of the program's jobs waiting for a thread (the queue
// length Little's law turns into waiting: wait per request = jobs waiting / requests per unit time).
// The canaries' own jobs are left out of the program's counts.
#pragma once

#include <atomic>
#include <string>

#include "pool_queue.h"

namespace stallbench {

struct PoolPeriod {
  double samples = 0;
  double threads = 0;           // at the last sample
  double busy_sum = 0;          // busy threads, summed over the samples
  double queued_sum = 0;        // the program's jobs waiting (for a thread or for a core)
  double waiting_sum = 0;       // the program's jobs waiting for a thread (waiting_for_thread)
  double queued_max = 0;
};

// The pool's state, or false while it cannot be read: before the sampler has looked libuv up,
// before a canary ran (pool_started), or where it cannot be read at all (pool_unreadable_why()).
bool pool_snapshot(PoolSnapshot& out);

// "" when the pool's state is readable, else why not.
std::string pool_unreadable_why();

// Canaries submitted and not yet started, and canaries running on a pool thread: counted so the
// program's view of the pool (programs_view in pool_queue.h) can leave them out. pool_snapshot reads
// them under libuv's lock: a canary is counted before it is queued and uncounted only after a thread
// has taken it, so no canary in the queue it walks is missing from the count. Read after the lock,
// a canary a thread began meanwhile would be in the walk and out of the count: a job of the
// program's that is not there.
extern std::atomic<int> canaries_queued;
extern std::atomic<int> canaries_running;

// Set when a canary has run on a pool thread: libuv then has its lock and queue initialised (it
// initialises them before it starts its threads), so they may be read. Before that, reading could
// race with libuv initialising its lock.
extern std::atomic<bool> pool_started;

// Starts the sampler (once per process) at `rate_per_s` samples a second; it looks libuv up first.
void start_pool_sampler(double rate_per_s);

// The sums since the previous call.
PoolPeriod take_pool_period();

}  // namespace stallbench
