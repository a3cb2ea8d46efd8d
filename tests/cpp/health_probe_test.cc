// The /health probe on its own thread against the server on the loop under test: it keeps its
// schedule while the loop is blocked, every request is answered once the loop runs again, and a
// request sent during a stall waits for the rest of it. Asserted as orders of events on the
// session's clock (session_order.h), never as latencies against a bound.
#include <gtest/gtest.h>

#include <algorithm>

#include "session_order.h"
#include "workloads/common/owned_loop.h"
#include "workloads/loop/calibration.h"
#include "workloads/loop/stall_session.h"

using namespace stallbench;

TEST(HealthProbe, IdleServerAnswersEveryRequest) {
  OwnedLoop loop;
  StallSession session(loop.get(), {.quiet_ms = 100});
  SessionRecord r = session.run([](Finished finished) { finished(nullptr); });
  EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
  ASSERT_FALSE(r.health.samples.empty());
  // It kept sending through the whole window: before the (empty) work and after it.
  auto [first, last] = std::minmax_element(r.health.samples.begin(), r.health.samples.end(),
                                           [](const auto& a, const auto& b) { return a.sent_ms < b.sent_ms; });
  EXPECT_LT(first->sent_ms, r.work_start_ms);
  EXPECT_GT(last->sent_ms, r.work_end_ms);
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
  // Requests kept being sent during the stall (the probe has its own thread): two are enough to
  // show it, the second going out while the first was still unanswered (see below). Seven are
  // due in 150 ms; two leave room for a probe thread that a busy machine wakes late.
  RequestsDuringWork during = requests_during_work(r);
  EXPECT_GE(during.sent, 2u);
  // Each of them waited for the rest of the stall: none was answered before it ended.
  EXPECT_EQ(during.answered_before, 0u) << "the loop answered while it spun";
  // The meter's span holds the whole callback that spun.
  EXPECT_GE(r.instruments.stall.max, spun);
}
