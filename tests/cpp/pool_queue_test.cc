// What a job waits for in libuv's pool (workloads/probe/pool_queue.h), on the states a lookup-heavy
// program puts it in: lookups beyond their share of the threads wait although threads sit idle, and
// an ordinary job does not queue behind them.
#include <gtest/gtest.h>

#include "workloads/probe/pool_queue.h"

using stallbench::PoolSnapshot;

TEST(PoolQueue, LookupsGetHalfThePoolRoundedUp) {
  EXPECT_EQ(stallbench::lookup_threads(1), 1u);
  EXPECT_EQ(stallbench::lookup_threads(2), 1u);
  EXPECT_EQ(stallbench::lookup_threads(4), 2u);
  EXPECT_EQ(stallbench::lookup_threads(5), 3u);
}

TEST(PoolQueue, OrdinaryJobsWaitOnlyBeyondTheIdleThreads) {
  PoolSnapshot s{.threads = 4, .idle = 1, .queued = 3};
  EXPECT_EQ(stallbench::competing(s), 3u);
  EXPECT_EQ(stallbench::waiting_for_thread(s), 2u);
  s.idle = 4;
  EXPECT_EQ(stallbench::waiting_for_thread(s), 0u);  // threads woken for them: a wait for cores
}

TEST(PoolQueue, HeldBackLookupsWaitWhileThreadsSitIdle) {
  // Pool 2: one lookup runs (its whole share), 5 more queued, the other thread idle.
  PoolSnapshot two{.threads = 2, .idle = 1, .queued = 5, .slow_queued = 5, .slow_running = 1};
  EXPECT_EQ(stallbench::waiting_for_thread(two), 5u);
  EXPECT_EQ(stallbench::competing(two), 0u);  // an fs job or a canary takes the idle thread
  // Pool 4: two lookups run, two idle threads, 3 lookups and 1 ordinary job queued.
  PoolSnapshot four{.threads = 4, .idle = 2, .queued = 4, .slow_queued = 3, .slow_running = 2};
  EXPECT_EQ(stallbench::competing(four), 1u);
  EXPECT_EQ(stallbench::waiting_for_thread(four), 3u);
}

TEST(PoolQueue, LookupsUnderTheirShareCompeteLikeOrdinaryJobs) {
  // Pool 8: one lookup runs, two queued may start; with one idle thread one of them waits.
  PoolSnapshot s{.threads = 8, .idle = 1, .queued = 2, .slow_queued = 2, .slow_running = 1};
  EXPECT_EQ(stallbench::competing(s), 2u);
  EXPECT_EQ(stallbench::waiting_for_thread(s), 1u);
  // More queued than the share leaves: those past it are held back.
  s = {.threads = 4, .idle = 2, .queued = 3, .slow_queued = 3, .slow_running = 0};
  EXPECT_EQ(stallbench::competing(s), 2u);
  EXPECT_EQ(stallbench::waiting_for_thread(s), 1u);
}

TEST(PoolQueue, TheProgramsViewLeavesTheCanariesOut) {
  // Pool 2: a thread runs a canary's no-op, the other a job of the program's; queued: 3 canaries
  // and 2 of the program's jobs.
  PoolSnapshot s{.threads = 2, .idle = 0, .queued = 5, .canaries_queued = 3, .canaries_running = 1};
  PoolSnapshot programs = stallbench::programs_view(s);
  EXPECT_EQ(programs.queued, 2u);
  EXPECT_EQ(programs.idle, 1u);  // the canary's thread is free again at once
  EXPECT_EQ(stallbench::competing(programs), 2u);
  EXPECT_EQ(stallbench::waiting_for_thread(programs), 1u);
}

TEST(PoolQueue, ACanaryAThreadHasTakenIsNeverTheProgramsJob) {
  // Pool 1, nothing of the program's: the thread has taken one of 4 canaries and not yet begun it,
  // so the queue holds 3 and the count still 4. The view may read the thread busy, never a job.
  PoolSnapshot s{.threads = 1, .idle = 0, .queued = 3, .canaries_queued = 4};
  PoolSnapshot programs = stallbench::programs_view(s);
  EXPECT_EQ(programs.queued, 0u);
  EXPECT_EQ(stallbench::competing(programs), 0u);
}

TEST(PoolQueue, CanariesAreNeverTakenForHeldBackLookups) {
  // Pool 2: a lookup runs, 2 more are held back in the lookups' queue; 1 canary queued.
  PoolSnapshot s{.threads = 2, .idle = 1, .queued = 3, .slow_queued = 2, .slow_running = 1, .canaries_queued = 1};
  PoolSnapshot programs = stallbench::programs_view(s);
  EXPECT_EQ(programs.queued, 2u);
  EXPECT_EQ(programs.slow_queued, 2u);
  EXPECT_EQ(stallbench::waiting_for_thread(programs), 2u);
}
