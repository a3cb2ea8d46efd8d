// The queueing model on cases worked by hand: M/D/1 (Pollaczek-Khinchine), Erlang C, overload
// of one thread and of the cores, libuv's slow-I/O cap, and a closed background load; and its
// prediction of a job's first wait for a thread (the canary's).
#include <gtest/gtest.h>

#include <cmath>

#include "workloads/pool_sweep/pool_model.h"

using namespace stallbench;

static ModelClass cpu(const char* name, double rate, double ms) {
  return {.name = name, .rate_per_s = rate, .step_ms = {ms}};
}

TEST(ErlangC, KnownValues) {
  EXPECT_NEAR(erlang_c(1, 0.4), 0.4, 1e-12);         // M/M/1: the chance of waiting is rho
  EXPECT_NEAR(erlang_c(2, 1.0), 1.0 / 3.0, 1e-12);   // 2 servers, load 1: 1/3 by hand
  EXPECT_EQ(erlang_c(2, 2.5), 1.0);                  // overloaded: everyone waits
  EXPECT_EQ(erlang_c(4, 0), 0.0);
}

TEST(WaitQuantile, AnAtomAndAnExponential) {
  // P(W > t) = p e^{-t/m}: the 99th percentile of p=0.4, m=100 is 100 ln(40).
  EXPECT_NEAR(wait_quantile(0.4, 100, 0.99), 100 * std::log(40.0), 1e-9);
  EXPECT_EQ(wait_quantile(0.4, 100, 0.5), 0);  // 60% do not wait at all
  EXPECT_NEAR(wait_quantile(0.8, 100, 0.5), 100 * std::log(1.6), 1e-9);
}

TEST(Model, LaterStepsWaitAShareOfTheFirstWait) {
  // One thread, 100 reads/s of four 1 ms steps: utilisation 0.4, a step's mean wait (M/D/1)
  // 0.4 * 1 / (2 * 0.6); the three later steps add 0.4, 0.16 and 0.064 of it.
  ModelInput in{.classes = {{.name = "read", .rate_per_s = 100, .step_ms = {1, 1, 1, 1}}}, .threads = 1, .cores = 1};
  auto c = predict(in).classes[0];
  EXPECT_NEAR(c.mean_wait_ms, 0.4 / 1.2 * (1 + 0.4 + 0.16 + 0.064), 1e-9);
  EXPECT_NEAR(c.service_ms, 4, 1e-12);
}

TEST(Model, MD1ByHand) {
  // One thread, 4 jobs/s of 100 ms: rho 0.4, mean wait rho S / (2 (1 - rho)) = 33.3 ms. The
  // waiting time is modelled as no wait (probability 0.6) or exponential with mean 83.3 ms.
  ModelInput in{.classes = {cpu("pbkdf2", 4, 100)}, .threads = 1, .cores = 1};
  auto p = predict(in);
  ASSERT_EQ(p.classes.size(), 1u);
  EXPECT_NEAR(p.classes[0].mean_wait_ms, 0.4 * 100 / (2 * 0.6), 1e-9);
  EXPECT_NEAR(p.classes[0].p50_ms, 100, 1e-9);
  EXPECT_NEAR(p.classes[0].p99_ms, 100 + (100.0 / 1.2) * std::log(40.0), 1e-6);
  EXPECT_FALSE(p.classes[0].saturated);
  EXPECT_DOUBLE_EQ(p.stretch, 1);
}

TEST(Model, OneThreadOverloadedFollowsTheBacklog) {
  // 20 jobs/s of 100 ms on one thread: rho 2, so the backlog grows by one second per second.
  // Arrivals finishing within window + drain = 15 s are those before 7.45 s; half of them waited
  // more than 3.725 s.
  ModelInput in{.classes = {cpu("pbkdf2", 20, 100)}, .threads = 1, .cores = 1, .window_s = 10, .drain_s = 5};
  auto c = predict(in).classes[0];
  EXPECT_TRUE(c.saturated);
  EXPECT_NEAR(c.p50_ms, 0.5 * 7450 + 100, 1e-6);
  EXPECT_NEAR(c.throughput_per_s, 10, 1e-9);
}

TEST(Model, MoreThreadsThanCoresStretchTheService) {
  // 30 jobs/s of 100 ms CPU is 3 cores of work on 2: no pool size can keep up, and with 8
  // threads each job runs at a quarter of its speed, so 20 jobs/s complete.
  ModelInput in{.classes = {cpu("pbkdf2", 30, 100)}, .threads = 8, .cores = 2};
  auto p = predict(in);
  EXPECT_TRUE(p.classes[0].saturated);
  EXPECT_NEAR(p.stretch, 4, 1e-6);
  EXPECT_NEAR(p.classes[0].throughput_per_s, 20, 1e-6);
  EXPECT_NEAR(p.cores_busy, 2, 1e-9);
  // With a core for every thread the same load is easy.
  in.cores = 9;
  auto easy = predict(in);
  EXPECT_FALSE(easy.classes[0].saturated);
  EXPECT_DOUBLE_EQ(easy.stretch, 1);
}

TEST(Model, LightLoadPredictsTheAloneTime) {
  ModelInput in{.classes = {cpu("deflate", 1, 5), {.name = "read", .rate_per_s = 1, .step_ms = {0.01, 0.01, 0.02, 0.01},
                                                    .overhead_ms = 0.2}},
                .threads = 4, .cores = 4};
  auto p = predict(in);
  EXPECT_NEAR(p.classes[0].p50_ms, 5, 1e-6);
  EXPECT_NEAR(p.classes[1].p50_ms, 0.25, 1e-6);  // four steps and the loop's overhead
}

TEST(Model, SlowIoIsCappedAtHalfThePool) {
  // Lookups held 100 ms at 30/s need 3 threads; with a pool of 4 libuv gives them 2, so their
  // queue grows, while reads still find threads. A pool of 8 gives them 4: they keep up.
  ModelClass lookup{.name = "lookup", .rate_per_s = 30, .step_ms = {100}, .cpu_share = 0, .slow_io = true};
  ModelClass read{.name = "read", .rate_per_s = 50, .step_ms = {0.02, 0.02, 0.02, 0.02}};
  auto at4 = predict({.classes = {lookup, read}, .threads = 4, .cores = 2});
  EXPECT_TRUE(at4.classes[0].saturated);
  EXPECT_FALSE(at4.classes[1].saturated);
  EXPECT_LT(at4.classes[1].p99_ms, 1);
  auto at8 = predict({.classes = {lookup, read}, .threads = 8, .cores = 2});
  EXPECT_FALSE(at8.classes[0].saturated);
}

TEST(Model, ClosedLoadHoldingEveryThreadMakesWaves) {
  // Seed 000 as a steady state: 4 pbkdf2 of 300 ms always in flight on 4 threads (and 4 cores).
  // A read waits for the current wave to end (half a job at the median); each of its three later
  // steps waits another wave one time in four. With 2 threads, two jobs are always queued: each
  // later step waits a whole wave behind them. With 8 threads nothing waits.
  ModelClass background{.name = "pbkdf2", .in_flight = 4, .step_ms = {300}};
  ModelClass read{.name = "read", .rate_per_s = 10, .step_ms = {0.01, 0.01, 0.01, 0.01}};
  auto at4 = predict({.classes = {background, read}, .threads = 4, .cores = 4});
  EXPECT_NEAR(at4.classes[1].p50_ms, (0.5 + 3 * 0.25) * 300 + 0.04, 1e-6);
  auto at2 = predict({.classes = {background, read}, .threads = 2, .cores = 4});
  EXPECT_NEAR(at2.classes[1].p50_ms, (0.5 + 1 + 3 * 2) * 300 + 0.04, 1e-6);
  EXPECT_NEAR(at4.classes[0].throughput_per_s, 4 / 0.3, 1e-6);
  auto at8 = predict({.classes = {background, read}, .threads = 8, .cores = 8});
  EXPECT_LT(at8.classes[1].p50_ms, 0.1);
  // On 2 cores the four jobs keep every core computing, so every read arrives to full cores and
  // pays the measured delay of that case; its steps also run at half speed.
  auto on2 = predict({.classes = {background, read}, .threads = 8, .cores = 2, .busy_cores_delay_ms = 5});
  EXPECT_NEAR(on2.classes[1].p50_ms, 0.04 * on2.stretch + 5, 1e-6);
}

TEST(Model, LookupsStarveBehindAQueuedBackground) {
  // Four 100 ms jobs always in flight on one thread: libuv's slow-I/O marker passes the queue
  // once per four jobs, so at most 2.5 lookups a second start, however fast they arrive.
  ModelClass background{.name = "pbkdf2", .in_flight = 4, .step_ms = {100}};
  ModelClass lookup{.name = "lookup", .rate_per_s = 20, .step_ms = {0.01}, .slow_io = true};
  auto p = predict({.classes = {background, lookup}, .threads = 1, .cores = 1});
  EXPECT_TRUE(p.classes[1].saturated);
  EXPECT_NEAR(p.classes[1].throughput_per_s, 2.5, 1e-9);
  ModelClass slow{.name = "lookup", .rate_per_s = 1, .step_ms = {0.01}, .slow_io = true};
  auto calm = predict({.classes = {background, slow}, .threads = 1, .cores = 1});
  EXPECT_FALSE(calm.classes[1].saturated);
  EXPECT_NEAR(calm.classes[1].p50_ms, 200 + 0.01, 1e-9);  // half a pass of 400 ms
}

// The first wait for a thread (a canary's) of an open mix: more threads never make it longer, on a
// machine with fewer cores than threads too (where every job's service stretches), from a pool that
// cannot keep up (the backlog's wait) to one that is idle; and every class waits in the one shared
// queue, the lookups' canaries as well (they are not slow I/O).
TEST(Model, PoolWaitNeverGrowsWithThePoolForAnOpenMix) {
  const std::vector<ModelClass> mix = {
      cpu("pbkdf2", 12, 60), cpu("deflate", 40, 4),
      {.name = "read", .rate_per_s = 100, .step_ms = {0.03, 0.02, 0.05, 0.02}, .overhead_ms = 0.2},
      {.name = "lookup", .rate_per_s = 20, .step_ms = {20}, .cpu_share = 0, .slow_io = true}};
  for (double cores : {1.0, 2.0, 8.0}) {
    Prediction before = predict({.classes = mix, .threads = 1, .cores = cores});
    EXPECT_GT(before.classes[0].pool_wait_p50_ms, 0) << cores;  // one thread is far too few: a queue
    for (int threads = 2; threads <= 32; ++threads) {
      Prediction now = predict({.classes = mix, .threads = threads, .cores = cores});
      for (std::size_t k = 0; k < mix.size(); ++k) {
        EXPECT_LE(now.classes[k].pool_wait_p50_ms, before.classes[k].pool_wait_p50_ms + 1e-9) << cores << " " << threads << " " << k;
        EXPECT_LE(now.classes[k].pool_wait_p99_ms, before.classes[k].pool_wait_p99_ms + 1e-9) << cores << " " << threads << " " << k;
        EXPECT_LE(now.classes[k].pool_wait_p50_ms, now.classes[k].pool_wait_p99_ms);
        if (!now.classes[k].saturated) {
          EXPECT_DOUBLE_EQ(now.classes[k].pool_wait_p50_ms, now.classes[0].pool_wait_p50_ms);
        }
      }
      before = now;
    }
    EXPECT_EQ(before.classes[0].pool_wait_p99_ms, 0) << cores;  // 32 threads: nothing waits
  }
}

TEST(Model, PoolWaitWithEveryThreadHeldIsTheFirstTripsWait) {
  // Seed 000's steady state again: a read's canary waits out the current wave (half a job at the
  // median, 0.99 of one at the 99th percentile); its later trips add to its latency, not to this
  // wait. The background's own jobs start at once on 4 threads; on 2, each resubmitted job waits
  // behind the two queued before it: one wave.
  ModelClass background{.name = "pbkdf2", .in_flight = 4, .step_ms = {300}};
  ModelClass read{.name = "read", .rate_per_s = 10, .step_ms = {0.01, 0.01, 0.01, 0.01}};
  auto at4 = predict({.classes = {background, read}, .threads = 4, .cores = 4});
  EXPECT_NEAR(at4.classes[1].pool_wait_p50_ms, 150, 1e-9);
  EXPECT_NEAR(at4.classes[1].pool_wait_p99_ms, 297, 1e-9);
  EXPECT_LT(at4.classes[1].pool_wait_p50_ms, at4.classes[1].p50_ms);
  EXPECT_EQ(at4.classes[0].pool_wait_p50_ms, 0);
  auto at2 = predict({.classes = {background, read}, .threads = 2, .cores = 4});
  EXPECT_NEAR(at2.classes[0].pool_wait_p50_ms, 300, 1e-9);
  EXPECT_NEAR(at2.classes[1].pool_wait_p50_ms, 1.5 * 300, 1e-9);
}
