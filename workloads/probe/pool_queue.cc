#include "pool_queue.h"

#include <algorithm>

namespace stallbench {
namespace {

// Lookups allowed to start now (they compete with ordinary jobs for the idle threads).
unsigned startable_lookups(const PoolSnapshot& s) {
  unsigned share = lookup_threads(s.threads);
  return std::min(s.slow_queued, share > s.slow_running ? share - s.slow_running : 0u);
}

}  // namespace

unsigned lookup_threads(unsigned threads) { return (threads + 1) / 2; }

unsigned competing(const PoolSnapshot& s) {
  unsigned ordinary = s.queued - std::min(s.queued, s.slow_queued);
  return ordinary + startable_lookups(s);
}

PoolSnapshot programs_view(const PoolSnapshot& s) {
  PoolSnapshot out = s;
  unsigned ordinary = s.queued - std::min(s.queued, s.slow_queued);  // canaries are never in the lookups' queue
  out.queued = s.queued - std::min(ordinary, s.canaries_queued);
  out.idle = std::min(s.threads, s.idle + s.canaries_running);
  out.canaries_queued = out.canaries_running = 0;
  return out;
}

unsigned waiting_for_thread(const PoolSnapshot& s) {
  unsigned ahead = competing(s);
  unsigned held_back = std::min(s.queued, s.slow_queued) - startable_lookups(s);
  return (ahead > s.idle ? ahead - s.idle : 0u) + held_back;
}

}  // namespace stallbench
