// The one percentile and the one median of the C++ side. Percentiles are nearest-rank on the exact
// values (no histogram buckets, no interpolation), so a single long stall among a handful of
// samples is its own p99. The median is the middle value, or the mean of the two middle ones: the
// same median the Python side reports (statistics.median).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace stallbench {

// The smallest value with at least `fraction` (0 < fraction <= 1) of the values at or below it:
// p99 of 100 values is the 99th smallest. 0 for no values.
inline double nearest_rank(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  auto at = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

// 0 for no values.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

}  // namespace stallbench
