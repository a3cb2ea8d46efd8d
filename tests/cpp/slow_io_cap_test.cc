// libuv's slow-I/O cap, made visible (UV_THREADPOOL_SIZE=4 for this executable): with many slow
// lookups queued, at most (4+1)/2 = 2 run at once and a file read still gets a thread, completing
// before the lookups drain. The same waits as ordinary pool work take every thread instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "workloads/common/owned_loop.h"
#include "workloads/common/temp_file.h"
#include "workloads/common/uv_clock.h"
#include "workloads/pool/file_read.h"
#include "workloads/pool/job_classes.h"
#include "workloads/pool/lookup.h"
#include "workloads/pool_sweep/slow_dns_burst.h"

using namespace stallbench;

// The most intervals [started, finished) open at one moment.
static int most_at_once(const std::vector<std::unique_ptr<ResolverCall>>& calls) {
  std::vector<std::pair<std::uint64_t, int>> edges;
  for (const auto& c : calls) edges.push_back({c->started_ns, 1}), edges.push_back({c->finished_ns, -1});
  std::sort(edges.begin(), edges.end());
  int open = 0, most = 0;
  for (auto [at, step] : edges) most = std::max(most, open += step);
  return most;
}

TEST(SlowIoCap, AReadOvertakesQueuedSlowLookups) {
  ASSERT_STREQ(std::getenv("UV_THREADPOOL_SIZE"), "4");
  OwnedLoop loop;
  TempFile file(patterned_bytes(4096));
  std::vector<std::unique_ptr<ResolverCall>> calls;
  std::vector<double> lookups_done;
  double read_done = -1;
  double start = hrtime_ms();
  for (int i = 0; i < 12; ++i) {
    calls.push_back(std::make_unique<ResolverCall>());
    calls.back()->hold = std::chrono::milliseconds(40);  // a slow resolver, without a packet sent
    lookup(loop.get(), "localhost", [&](std::string address, std::string error) {
      EXPECT_EQ(error, "");
      EXPECT_TRUE(is_loopback(address));
      lookups_done.push_back(hrtime_ms() - start);
    }, calls.back().get());
  }
  read_file(loop.get(), file.path(), [&](std::string bytes, std::string error) {
    EXPECT_EQ(error, "");
    EXPECT_EQ(bytes, file.bytes());
    read_done = hrtime_ms() - start;
  });
  run_loop(loop.get());
  ASSERT_EQ(lookups_done.size(), 12u);
  EXPECT_EQ(most_at_once(calls), 2);  // (threads + 1) / 2
  EXPECT_GE(read_done, 0);
  EXPECT_LT(read_done, *std::max_element(lookups_done.begin(), lookups_done.end()));
  // Submitted after all twelve, it finished before at least the last wave of them.
  EXPECT_LE(std::count_if(lookups_done.begin(), lookups_done.end(), [&](double t) { return t < read_done; }), 10);
}

TEST(SlowIoCap, TheSameWaitsAsOrdinaryWorkTakeEveryThread) {
  OwnedLoop loop;
  TempFile file(patterned_bytes(4096));
  SlowDnsConfig config{.lookups = 8, .delay = std::chrono::milliseconds(30), .file_path = file.path()};
  SlowDnsResult r = run_blocking_work_burst(loop.get(), config);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.max_concurrent, 4);  // every thread
  EXPECT_EQ(r.file_bytes, file.bytes());
  // The read queued behind all eight: it completed after every one of them started, so after
  // the first wave of four had finished.
  auto first_wave_done = std::count_if(r.lookup_done_ms.begin(), r.lookup_done_ms.end(), [&](double t) { return t <= r.read_ms; });
  EXPECT_GE(first_wave_done, 4);
}
