// The /health probe on its own thread against the server on the loop under test: it keeps its
// schedule while the loop is blocked, every request is answered once the loop runs again, and a
// request sent during a stall waits for the rest of it.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/loop/calibration.h"
#include "workloads/loop/stall_session.h"

using namespace stallbench;

TEST(HealthProbe, IdleServerAnswersEveryRequest) {
  OwnedLoop loop;
  StallSession session(loop.get(), {.quiet_ms = 100});
  SessionRecord r = session.run([](Finished finished) { finished(nullptr); });
  EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
  EXPECT_GE(r.health.samples.size(), 5u);  // ~200 ms at one request per 20 ms
  for (const auto& s : r.health.samples) EXPECT_GE(s.latency_ms, 0.0);
}

TEST(HealthProbe, RequestsDuringAStallWaitForIt) {
  OwnedLoop loop;
  StallSession session(loop.get());
  double spun = 0;
  SessionRecord r = session.run([&](Finished finished) {
    spun = spin_ms(150);
    finished(nullptr);
  });
  EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
  // Requests kept being sent during the stall (the probe has its own thread) ...
  int sent_during = 0;
  for (const auto& s : r.health.samples)
    if (s.sent_ms > r.work_start_ms && s.sent_ms < r.work_end_ms) ++sent_during;
  EXPECT_GE(sent_during, 3);
  // ... and the first of them waited for nearly all of it.
  EXPECT_GE(r.health.latency().max, spun - 40);
  EXPECT_GE(r.instruments.stall.max, spun);
}
