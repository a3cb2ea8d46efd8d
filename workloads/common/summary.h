// p50 / p99 / max of a set of durations, the three figures every stall instrument reports.
// Percentiles are nearest-rank on the exact values (no histogram buckets), so a single long
// stall among a handful of samples is its own p99.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace stallbench {

struct Summary {
  std::size_t count = 0;
  double p50 = 0, p99 = 0, max = 0;  // 0 when there are no samples
};

// The q-th percentile (0 < q <= 100) by nearest rank: the smallest value with at least q% of the
// samples at or below it. `sorted` must be ascending and non-empty.
inline double nearest_rank(const std::vector<double>& sorted, double q) {
  auto rank = static_cast<std::size_t>(std::ceil(q / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

inline Summary summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.p50 = nearest_rank(values, 50);
  s.p99 = nearest_rank(values, 99);
  s.max = values.back();
  return s;
}

// The summary of one field across a list of samples (a delay, a latency, a window's utilisation).
template <typename Sample>
Summary summarize_field(const std::vector<Sample>& samples, double Sample::*field) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const auto& s : samples) values.push_back(s.*field);
  return summarize(std::move(values));
}

}  // namespace stallbench
