#include "steady_state.h"

#include <uv.h>

#include <cstdint>

#include "../common/percentile.h"
#include "../common/thread_clock.h"

namespace stallbench {

namespace {

// The call's time on this thread's CPU clock: on a shared, loaded machine the wall clock would
// also count the time other processes held the core, which has nothing to do with the parser.
double time_call(const std::function<void()>& once) {
  double start = thread_cpu_ms();
  once();
  return thread_cpu_ms() - start;
}

SteadyState summary(const std::vector<double>& ms) { return {median(ms), ms.size()}; }

bool going(std::uint64_t start, double min_ms, std::size_t calls) {
  return calls < 2 || static_cast<double>(uv_hrtime() - start) / 1e6 < min_ms;
}

}  // namespace

AgainstReference time_against_reference(double min_ms, const std::function<void()>& adapter,
                                        const std::function<void()>& reference) {
  std::vector<double> adapter_ms, reference_ms;
  for (std::uint64_t start = uv_hrtime(); going(start, min_ms, adapter_ms.size());) {
    adapter_ms.push_back(time_call(adapter));
    reference_ms.push_back(time_call(reference));
  }
  AgainstReference r{summary(adapter_ms), summary(reference_ms), 0};
  r.overhead_ratio = r.reference.median_ms > 0 ? r.adapter.median_ms / r.reference.median_ms : 0;
  return r;
}

}  // namespace stallbench
