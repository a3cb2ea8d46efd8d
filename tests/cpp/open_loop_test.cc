// The open-loop driver's bookkeeping (UV_THREADPOOL_SIZE=1): every arrival is accounted for
// (completed, unfinished or dropped), latency splits exactly into wait and service, a class kept
// in flight keeps its jobs out, an overloaded run ends with unfinished work cancelled, and with
// canaries every completed job has its first wait for a thread.
#include <gtest/gtest.h>

#include <algorithm>

#include "workloads/common/owned_loop.h"
#include "workloads/pool/job_classes.h"
#include "workloads/pool/warm_pool.h"
#include "workloads/pool_sweep/open_loop.h"

using namespace stallbench;

static void expect_accounted(const ClassOutcome& o) {
  EXPECT_EQ(o.arrived, static_cast<std::int64_t>(o.latency_ms.size()) + o.unfinished + o.dropped);
  ASSERT_EQ(o.latency_ms.size(), o.wait_ms.size());
  for (std::size_t i = 0; i < o.latency_ms.size(); ++i) {
    EXPECT_NEAR(o.wait_ms[i] + o.service_ms[i], o.latency_ms[i], 1e-6);
    EXPECT_GE(o.service_ms[i], 0);
  }
}

TEST(OpenLoop, LightLoadCompletesEverything) {
  OwnedLoop loop;
  warm_pool(loop.get(), 1);
  auto stat = make_job_class("stat", 0);
  auto read = make_job_class("read", 4096);
  OpenLoopConfig config{.classes = {{stat.get(), 200}, {read.get(), 100}}, .window_s = 0.5, .drain_s = 1, .seed = 7};
  OpenLoopResult r = run_open_loop(loop.get(), config);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  for (const auto& o : r.classes) {
    EXPECT_GT(o.arrived, 0);
    EXPECT_EQ(o.unfinished, 0);
    EXPECT_EQ(o.dropped, 0);
    expect_accounted(o);
  }
  EXPECT_GE(r.window_s, config.window_s);  // it ends at the first tick at or after its end
  EXPECT_GE(r.cpu_util, 0);
}

TEST(OpenLoop, SameSeedSameArrivals) {
  OwnedLoop loop;
  auto stat = make_job_class("stat", 0);
  OpenLoopConfig config{.classes = {{stat.get(), 300}}, .window_s = 0.3, .drain_s = 1, .seed = 11};
  auto a = run_open_loop(loop.get(), config).classes[0].arrived;
  auto b = run_open_loop(loop.get(), config).classes[0].arrived;
  EXPECT_EQ(a, b);
  config.seed = 12;
  EXPECT_NE(run_open_loop(loop.get(), config).classes[0].arrived, a);
}

// The Node runner hands Node the schedule without any C++ job: it must depend on the seed and the
// rates alone, and be the arrivals the C++ driver submits.
TEST(OpenLoop, ScheduleIsTheDriversArrivalsWithoutJobs) {
  OwnedLoop loop;
  auto stat = make_job_class("stat", 0);
  OpenLoopConfig config{.classes = {{stat.get(), 300}, {stat.get(), 0, 2}}, .window_s = 0.3, .drain_s = 1, .seed = 11};
  OpenLoopConfig without_jobs = config;
  for (auto& c : without_jobs.classes) c.job = nullptr;
  auto schedule = arrival_schedule(without_jobs);
  ASSERT_FALSE(schedule.empty());
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    EXPECT_EQ(schedule[i].cls, 0u);  // the class kept in flight has no arrivals
    EXPECT_LT(schedule[i].offset_ns, 300'000'000u);
    if (i > 0) {
      EXPECT_GE(schedule[i].offset_ns, schedule[i - 1].offset_ns);
    }
  }
  EXPECT_EQ(static_cast<std::int64_t>(schedule.size()), run_open_loop(loop.get(), config).classes[0].arrived);
}

TEST(OpenLoop, ClosedClassKeepsItsJobsInFlight) {
  OwnedLoop loop;
  auto cpu = make_job_class("pbkdf2", 2000);
  OpenLoopConfig config{.classes = {{cpu.get(), 0, 3}}, .window_s = 0.3, .drain_s = 2, .seed = 1};
  OpenLoopResult r = run_open_loop(loop.get(), config);
  const ClassOutcome& o = r.classes[0];
  EXPECT_GT(o.arrived, 3);  // each completion submitted the next
  expect_accounted(o);
}

TEST(OpenLoop, OverloadEndsWithUnfinishedWorkCancelled) {
  OwnedLoop loop;
  auto cpu = make_job_class("pbkdf2", 200'000);  // far more work than one thread can do in the window
  OpenLoopConfig config{.classes = {{cpu.get(), 400}}, .window_s = 0.3, .drain_s = 0.2, .seed = 3, .max_outstanding = 50};
  OpenLoopResult r = run_open_loop(loop.get(), config);
  EXPECT_TRUE(r.errors.empty());
  const ClassOutcome& o = r.classes[0];
  EXPECT_GT(o.unfinished, 0);
  EXPECT_GT(o.dropped, 0);
  expect_accounted(o);
}

// A canary before every job: one wait per completed job, and no job's wait for its first thread can
// exceed its whole wait (the canary was submitted after the arrival and started before the job's
// first step), so neither can any percentile of them: sorted, each wait is at most the wait at the
// same rank. Behind a long job kept in flight on the one thread, the others really wait.
TEST(OpenLoop, CanariesGiveEveryCompletedJobItsFirstWait) {
  OwnedLoop loop;
  warm_pool(loop.get(), 1);
  auto background = make_job_class("pbkdf2", 20'000);
  auto stat = make_job_class("stat", 0);
  auto read = make_job_class("read", 4096);
  OpenLoopConfig config{.classes = {{background.get(), 0, 1}, {stat.get(), 100}, {read.get(), 50}}, .window_s = 0.5,
                        .drain_s = 2, .seed = 5, .canaries = true};
  OpenLoopResult r = run_open_loop(loop.get(), config);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  for (const auto& o : r.classes) {
    expect_accounted(o);
    ASSERT_EQ(o.pool_wait_ms.size(), o.latency_ms.size());
    auto first = o.pool_wait_ms, whole = o.wait_ms;
    std::sort(first.begin(), first.end());
    std::sort(whole.begin(), whole.end());
    for (std::size_t i = 0; i < first.size(); ++i) EXPECT_LE(first[i], whole[i] + 1e-6);
  }
  EXPECT_GT(*std::max_element(r.classes[1].pool_wait_ms.begin(), r.classes[1].pool_wait_ms.end()), 0);
  config.canaries = false;
  EXPECT_TRUE(run_open_loop(loop.get(), config).classes[1].pool_wait_ms.empty());
}
