// Steady state, as Google Benchmark's min-time measures it: the same call repeated until a minimum
// time (wall clock) has passed, each call timed on the thread's CPU clock, the median kept. Adapter
// and reference calls alternate one by one in one process, so a machine that gets busier or
// quieter meanwhile moves both alike.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace stallbench {

struct SteadyState {
  double median_ms = 0;
  std::size_t iterations = 0;
};

struct AgainstReference {
  SteadyState adapter, reference;
  double overhead_ratio = 0;  // adapter.median_ms / reference.median_ms
};

// Adapter, reference, adapter, ... until `min_ms` has passed (at least twice each).
AgainstReference time_against_reference(double min_ms, const std::function<void()>& adapter,
                                        const std::function<void()>& reference);

}  // namespace stallbench
