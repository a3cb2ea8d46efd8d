// See pool_occupancy.h. The symbols are looked up once, by the sampler's thread (so a program's
// start-up does not wait for the symbol table to be read); until then nothing is read. The queue is
// walked under libuv's lock with a bound, and a list that does not link back is a reason to stop
// reading, not a count.
#include "workloads/probe/pool_occupancy.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

#include "workloads/probe/libuv_pool_symbols.h"

namespace stallbench {

std::atomic<int> canaries_queued{0};
std::atomic<int> canaries_running{0};
std::atomic<bool> pool_started{false};

namespace {

constexpr unsigned kMaxWalk = 1u << 20;  // more jobs than this in the queue: something is wrong

const char* const kNotAList = "libuv's queue did not read as a list (a libuv whose pool this probe does not know)";

enum class Lookup { pending, readable, unreadable, broken };

struct Reader {
  LibuvPool pool;
  std::mutex why_lock;  // the sampler and the main thread (a canary's submission) both read the pool
  std::string why;
  std::atomic<Lookup> state{Lookup::pending};
  std::atomic<bool> first_read_checked{false};
};

Reader& reader() {
  static Reader* r = new Reader;  // never destroyed: the sampler may still run while the process exits
  return *r;
}

// Once, on the sampler's thread: reading the symbol table takes tens of milliseconds.
void look_up(Reader& r) {
  std::string why;
  bool found = find_libuv_pool(r.pool, why);
  std::lock_guard<std::mutex> guard(r.why_lock);
  r.why = why;
  r.state = found ? Lookup::readable : Lookup::unreadable;
}

// Stops every later read, with the reason (the first reason given stays).
void give_up(Reader& r, const std::string& why) {
  std::lock_guard<std::mutex> guard(r.why_lock);
  if (r.state == Lookup::broken) return;
  r.why = why;
  r.state = Lookup::broken;
}

// The first read is checked against what libuv must hold then: as many threads as it starts, no more
// idle than that. A variable that holds anything else is not the one this probe thinks it reads.
bool first_read_agrees(Reader& r, unsigned threads, unsigned idle) {
  if (r.first_read_checked.load(std::memory_order_acquire)) return true;
  unsigned expected = threads_libuv_starts(std::getenv("UV_THREADPOOL_SIZE"));
  if (threads != expected || idle > threads) {
    give_up(r, "libuv's pool read " + std::to_string(threads) + " threads (" + std::to_string(idle) +
                   " idle) where UV_THREADPOOL_SIZE makes it start " + std::to_string(expected) +
                   ": not the variables this probe reads in the libuvs it knows; not read further");
    return false;
  }
  r.first_read_checked.store(true, std::memory_order_release);
  return true;
}

// Entries of a circular list, markers left out; false if it does not link back within the bound.
bool count(const UvQueue* head, const LibuvPool& p, unsigned& n) {
  const UvQueue* q = head->next;
  for (unsigned k = 0; q != head; ++k, q = q->next) {
    if (k >= kMaxWalk || q == nullptr || q->next == nullptr || q->next->prev != q) return false;
    if (q != p.run_slow_marker && q != p.exit_marker) ++n;
  }
  return true;
}

struct Sampler {
  std::mutex lock;
  PoolPeriod period;
  bool started = false;
};

Sampler& sampler() {
  static Sampler* s = new Sampler;  // never destroyed, as reader()
  return *s;
}

void add(PoolPeriod& p, const PoolSnapshot& sampled) {
  PoolSnapshot s = programs_view(sampled);
  double queued = s.queued;
  p.samples += 1;
  p.threads = s.threads;
  p.busy_sum += s.threads - s.idle;
  p.queued_sum += queued;
  p.waiting_sum += waiting_for_thread(s);
  p.queued_max = std::max(p.queued_max, queued);
}

void run(double rate_per_s) {
  look_up(reader());
  if (reader().state != Lookup::readable) return;
  std::mt19937_64 random(std::random_device{}());
  std::exponential_distribution<double> gap(rate_per_s);
  Sampler& s = sampler();
  auto next = std::chrono::steady_clock::now();
  for (;;) {
    next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(gap(random)));
    std::this_thread::sleep_until(next);
    PoolSnapshot now;
    if (!pool_snapshot(now)) {
      if (reader().state != Lookup::readable) return;  // the queue broke: nothing more to sample
      continue;                                        // the pool has not started yet
    }
    std::lock_guard<std::mutex> guard(s.lock);
    add(s.period, now);
  }
}

}  // namespace

bool pool_snapshot(PoolSnapshot& out) {
  Reader& r = reader();
  if (r.state != Lookup::readable || !pool_started.load(std::memory_order_acquire)) return false;
  const LibuvPool& p = r.pool;
  unsigned ordinary = 0, lookups = 0;
  pthread_mutex_lock(p.mutex);
  unsigned threads = *p.nthreads, idle = *p.idle_threads, lookups_running = *p.slow_io_running;
  bool linked = count(p.wq, p, ordinary) && count(p.slow_io_pending, p, lookups);
  int canaries = canaries_queued.load(std::memory_order_relaxed);
  int running = canaries_running.load(std::memory_order_relaxed);
  pthread_mutex_unlock(p.mutex);
  if (!linked || threads == 0 || idle > threads) {
    give_up(r, kNotAList);
    return false;
  }
  if (!first_read_agrees(r, threads, idle)) return false;
  out = {.threads = threads, .idle = idle, .queued = ordinary + lookups, .slow_queued = lookups,
         .slow_running = lookups_running, .canaries_queued = static_cast<unsigned>(std::max(0, canaries)),
         .canaries_running = static_cast<unsigned>(std::max(0, running))};
  return true;
}

std::string pool_unreadable_why() {
  Reader& r = reader();
  std::lock_guard<std::mutex> guard(r.why_lock);
  switch (r.state.load()) {
    case Lookup::pending: return "libuv's pool has not been looked up yet";
    case Lookup::readable: return "";
    case Lookup::unreadable:
    case Lookup::broken: return r.why;
  }
  return "";
}

void start_pool_sampler(double rate_per_s) {
  Sampler& s = sampler();
  std::lock_guard<std::mutex> guard(s.lock);
  if (s.started) return;
  s.started = true;
  std::thread(run, rate_per_s).detach();
}

PoolPeriod take_pool_period() {
  Sampler& s = sampler();
  std::lock_guard<std::mutex> guard(s.lock);
  PoolPeriod out = s.period;
  s.period = PoolPeriod{};
  return out;
}

}  // namespace stallbench
