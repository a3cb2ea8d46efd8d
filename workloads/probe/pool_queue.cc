#include "pool_queue.h"

#include <algorithm>

namespace stallbench {
namespace {

// The jobs queued outside the lookups' queue (canaries are never in it).
unsigned ordinary_queued(const PoolSnapshot& s) { return s.queued - std::min(s.queued, s.slow_queued); }

// Lookups allowed to start now (they compete with ordinary jobs for the idle threads).
unsigned startable_lookups(const PoolSnapshot& s) {
  unsigned share = lookup_threads(s.threads);
  return std::min(s.slow_queued, share > s.slow_running ? share - s.slow_running : 0u);
}

}  // namespace

unsigned lookup_threads(unsigned threads) { return (threads + 1) / 2; }

unsigned competing(const PoolSnapshot& s) {
  return ordinary_queued(s) + startable_lookups(s);
}

PoolSnapshot programs_view(const PoolSnapshot& s) {
  PoolSnapshot out = s;
  out.queued = s.queued - std::min(ordinary_queued(s), s.canaries_queued);
  out.idle = std::min(s.threads, s.idle + s.canaries_running);
  out.canaries_queued = out.canaries_running = 0;
  return out;
}

unsigned waiting_for_thread(const PoolSnapshot& s) {
  unsigned ahead = competing(s);
  unsigned held_back = s.queued - ordinary_queued(s) - startable_lookups(s);
  return (ahead > s.idle ? ahead - s.idle : 0u) + held_back;
}

}  // namespace stallbench
