// The seed's shape, not its times: with one pool thread (UV_THREADPOOL_SIZE=1, set by ctest for
// this executable) and one long pbkdf2 job, the file read and the lookup wait for the job while
// the TCP request does not; and the same of any probe run_behind_jobs is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

#include "workloads/common/owned_loop.h"
#include "workloads/common/temp_file.h"
#include "workloads/net/http_server.h"
#include "workloads/pool/behind_jobs.h"
#include "workloads/pool/saturation.h"

using namespace stallbench;

static int position(const SaturationResult& r, const std::string& what) {
  auto it = std::find_if(r.order.begin(), r.order.end(), [&](const Completion& c) { return c.what == what; });
  return static_cast<int>(it - r.order.begin());
}

TEST(PoolShape, OneThreadOneLongJob) {
  ASSERT_STREQ(std::getenv("UV_THREADPOOL_SIZE"), "1");
  OwnedLoop loop;
  HttpServer server(loop.get());
  TempFile file(patterned_bytes(4096));
  SaturationConfig config;
  config.jobs = 1;
  config.pbkdf2.iterations = 400'000;  // long beside a loopback round trip, short for a test
  config.file_path = file.path();
  config.http_port = server.port();
  Key reference;
  time_pbkdf2_alone(loop.get(), config.pbkdf2, &reference);

  SaturationResult r = run_saturation(loop.get(), config);

  EXPECT_EQ(check_saturation(r, config, reference, file.bytes()), std::vector<std::string>{});
  EXPECT_LT(position(r, "tcp"), position(r, "pbkdf2"));
  EXPECT_GT(position(r, "fs"), position(r, "pbkdf2"));
  EXPECT_GT(position(r, "dns"), position(r, "pbkdf2"));
  // Their canaries waited for the job's thread: most of the job's time, and the wait was over before
  // the request queued behind each canary completed. Not necessarily before the loop ran the job's
  // callback: the freed thread may start the canary a moment before that callback or a moment after
  // (12 ms after, once, under ASan beside two spinners per core).
  for (auto [wait, request_done] : {std::pair{r.fs_wait_ms, r.fs_ms}, std::pair{r.dns_wait_ms, r.dns_ms}}) {
    EXPECT_GE(wait, 0.5 * r.pbkdf2_done_ms[0]);
    EXPECT_LE(wait, request_done);
  }
}

TEST(PoolShape, JobsRunOneAfterAnotherOnOneThread) {
  OwnedLoop loop;
  HttpServer server(loop.get());
  TempFile file(patterned_bytes(16));
  SaturationConfig config;
  config.jobs = 3;
  config.pbkdf2.iterations = 20'000;
  config.file_path = file.path();
  config.http_port = server.port();
  SaturationResult r = run_saturation(loop.get(), config);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_TRUE(std::is_sorted(r.pbkdf2_done_ms.begin(), r.pbkdf2_done_ms.end()));
}

// The building block on its own, with a probe the saturation cell does not have: a uv_fs_stat
// behind one long job on one thread waits for the job; a timer on the loop does not.
TEST(BehindJobs, AStatProbeQueuesBehindTheJob) {
  OwnedLoop loop;
  TempFile file(patterned_bytes(16));
  Pbkdf2Params long_job;
  long_job.iterations = 200'000;
  struct Stat {
    uv_fs_t req;
    Finished finished;
  };
  Probe stat{"stat", [&](Finished finished) {
    auto* s = new Stat{{}, std::move(finished)};
    s->req.data = s;
    int rc = uv_fs_stat(loop.get(), &s->req, file.path().c_str(), [](uv_fs_t* req) {
      std::unique_ptr<Stat> s(static_cast<Stat*>(req->data));
      std::string error = req->result < 0 ? uv_strerror(static_cast<int>(req->result)) : "";
      if (req->result == 0 && req->statbuf.st_size != 16) error = "wrong size";
      uv_fs_req_cleanup(req);
      s->finished(error);
    });
    ASSERT_EQ(rc, 0);
  }};
  uv_timer_t timer;
  Probe tick{"timer", [&](Finished finished) {
    uv_timer_init(loop.get(), &timer);
    timer.data = new Finished(std::move(finished));
    uv_timer_start(&timer, [](uv_timer_t* t) {
      std::unique_ptr<Finished> done(static_cast<Finished*>(t->data));
      uv_close(reinterpret_cast<uv_handle_t*>(t), nullptr);
      (*done)("");
    }, 1, 0);
  }};
  BehindJobsResult r = run_behind_jobs(loop.get(), "pbkdf2", 1, [&](int, Finished finished) {
    queue_pbkdf2(loop.get(), long_job, [finished](Key, std::string error) { finished(error); });
  }, {stat, tick});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.order.size(), 3u);
  EXPECT_EQ(r.order[0].what, "timer");
  EXPECT_EQ(r.order[1].what, "pbkdf2");
  EXPECT_EQ(r.order[2].what, "stat");
  EXPECT_GE(r.probe_done_ms[0], r.job_done_ms[0]);
}

TEST(PoolEfficiency, AgainstTheCeiling) {
  // 4 jobs of 100 ms on 4 threads and 2 cores: the ceiling is 2 at a time, so 200 ms is 100%.
  EXPECT_DOUBLE_EQ(pool_efficiency(4, 200, 100, 4, 2), 1.0);
  EXPECT_DOUBLE_EQ(pool_efficiency(4, 400, 100, 4, 2), 0.5);
  // Fewer jobs than threads and cores: the jobs are the ceiling.
  EXPECT_DOUBLE_EQ(pool_efficiency(1, 100, 100, 8, 4), 1.0);
  EXPECT_EQ(pool_efficiency(4, 0, 100, 4, 2), 0.0);
}
