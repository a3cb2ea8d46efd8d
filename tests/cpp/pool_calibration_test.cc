// The model's calibration (UV_THREADPOOL_SIZE=1): alone jobs are spaced like arrivals in a run,
// with the loop asleep between them, so the count they fit in a budget is bounded by the gaps.
#include <gtest/gtest.h>

#include <uv.h>

#include <memory>
#include <vector>

#include "workloads/common/owned_loop.h"
#include "workloads/pool/job_classes.h"
#include "workloads/pool/warm_pool.h"
#include "workloads/pool_sweep/calibration.h"

using namespace stallbench;

TEST(Calibration, AloneJobsAreSpacedAndCountedAgainstTheBudget) {
  OwnedLoop loop;
  warm_pool(loop.get(), 1);
  std::vector<std::unique_ptr<JobClass>> jobs;
  jobs.push_back(make_job_class("stat", 0));
  std::uint64_t start = uv_hrtime();
  Calibration c = calibrate(loop.get(), jobs, 2, 100);
  double elapsed_ms = static_cast<double>(uv_hrtime() - start) / 1e6;
  ASSERT_EQ(c.alone.size(), 1u);
  std::size_t n = c.alone[0].latencies.size();
  // Back to back, a stat of microseconds would fill all 25 samples; 10 ms apart, 100 ms holds 10.
  EXPECT_GE(n, 3u);
  EXPECT_LE(n, 10u);
  EXPECT_GE(elapsed_ms, 9.0 * static_cast<double>(n));  // a libuv timer never fires early by a whole ms
  EXPECT_EQ(c.alone[0].steps.size(), n);
}
