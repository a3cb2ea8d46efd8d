// The /health probe on its own thread against the server on the loop under test: it keeps its
// schedule while the loop is blocked, every request is answered once the loop runs again, and a
// request sent during a stall waits for the rest of it. Asserted as orders of events on the
// session's clock (session_order.h), never as latencies against a bound.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "session_order.h"
#include "workloads/common/owned_loop.h"
#include "workloads/stall/calibration.h"
#include "workloads/stall/stall_session.h"

using namespace stallbench;

TEST(HealthProbe, IdleServerAnswersEveryRequest) {
  OwnedLoop loop;
  StallSession session(loop.get());
  // The work: the loop idles until its server has answered three requests, however late a busy
  // machine runs the probe's thread, so three answers are in the record by construction.
  uv_check_t served;
  SessionRecord r = session.run([&](Finished finished) {
    uv_check_init(loop.get(), &served);
    served.data = new std::pair<StallSession*, Finished>(&session, std::move(finished));
    uv_check_start(&served, [](uv_check_t* check) {
      auto* work = static_cast<std::pair<StallSession*, Finished>*>(check->data);
      if (work->first->requests_served() < 3) return;
      uv_close(reinterpret_cast<uv_handle_t*>(check), nullptr);
      std::unique_ptr<std::pair<StallSession*, Finished>> done(work);
      done->second(nullptr);
    });
  });
  EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
  EXPECT_GE(r.health.samples.size(), 3u);
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
