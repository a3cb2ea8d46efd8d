// p50 / p99 / max of a set of durations, the three figures every stall instrument reports
// (percentiles by nearest rank, percentile.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "percentile.h"

namespace stallbench {

struct Summary {
  std::size_t count = 0;
  double p50 = 0, p99 = 0, max = 0;  // 0 when there are no samples
};

inline Summary summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  s.p50 = nearest_rank(values, 0.50);
  s.p99 = nearest_rank(values, 0.99);
  s.max = *std::max_element(values.begin(), values.end());
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
