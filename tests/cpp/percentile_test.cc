// The one percentile (nearest rank) and the one median of the C++ side, on the cases where
// definitions differ: even counts, a single value, none, unsorted input.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "workloads/common/percentile.h"
#include "workloads/common/summary.h"

using namespace stallbench;

TEST(Percentile, NearestRank) {
  std::vector<double> v(100);
  std::iota(v.begin(), v.end(), 1.0);
  EXPECT_EQ(nearest_rank(v, 0.99), 99);
  EXPECT_EQ(nearest_rank(v, 0.5), 50);
  EXPECT_EQ(nearest_rank(v, 1.0), 100);
  EXPECT_EQ(nearest_rank({}, 0.5), 0);
  EXPECT_EQ(nearest_rank({7}, 0.01), 7);
  EXPECT_EQ(nearest_rank({5, 1, 4, 2, 3}, 0.6), 3);
}

TEST(Percentile, MedianIsTheMiddleOrTheMeanOfTheTwoMiddleValues) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({7}), 7);
  EXPECT_EQ(median({}), 0);
}

TEST(Percentile, SummaryReadsNearestRanks) {
  std::vector<double> v(10);
  std::iota(v.begin(), v.end(), 1.0);
  std::reverse(v.begin(), v.end());
  Summary s = summarize(v);
  EXPECT_EQ(s.count, 10u);
  EXPECT_EQ(s.p50, 5);  // nearest rank, not the median's 5.5
  EXPECT_EQ(s.p99, 10);
  EXPECT_EQ(s.max, 10);
}
