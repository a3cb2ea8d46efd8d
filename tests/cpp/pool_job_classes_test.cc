// Every job class runs, times its steps, and checks its own answer; mixes parse in both
// spellings and refuse what is wrong with one line. Runs with UV_THREADPOOL_SIZE=4.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/pool/job_classes.h"
#include "workloads/pool/resolver_timing.h"
#include "workloads/pool_sweep/mix.h"

using namespace stallbench;

static JobResult run_one(JobClass& job) {
  OwnedLoop loop;
  JobHandle handle;
  JobResult result;
  result.error = "not called";
  job.submit(loop.get(), handle, [&](JobResult r) { result = std::move(r); });
  run_loop(loop.get());
  EXPECT_EQ(handle.queued, nullptr);
  return result;
}

class EveryClass : public ::testing::TestWithParam<std::pair<const char*, std::int64_t>> {};

TEST_P(EveryClass, AnswersRightAndTimesItsSteps) {
  auto [name, size] = GetParam();
  auto job = make_job_class(name, size);
  JobResult r = run_one(*job);
  EXPECT_EQ(r.error, "");
  EXPECT_FALSE(r.cancelled);
  ASSERT_FALSE(r.step_service_ms.empty());
  EXPECT_EQ(r.step_service_ms.size(), std::string(name) == "read" ? 4u : 1u);
  EXPECT_GT(r.service_ms(), 0);
  EXPECT_GT(r.completed_ns, 0u);
}

INSTANTIATE_TEST_SUITE_P(JobClasses, EveryClass,
                         ::testing::Values(std::pair{"pbkdf2", 1000}, std::pair{"scrypt", 1024}, std::pair{"deflate", 20000},
                                           std::pair{"read", 70000}, std::pair{"stat", 0}, std::pair{"lookup", 0},
                                           std::pair{"reverse", 0}));

TEST(JobClasses, ALargeReadTakesSeveralReadSteps) {
  auto job = make_job_class("read", 1'200'000);  // 512 KiB a step: three reads
  JobResult r = run_one(*job);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.step_service_ms.size(), 6u);
}

TEST(JobClasses, HeldLookupHoldsTheThread) {
  auto job = make_job_class("lookup", 30);
  EXPECT_EQ(job->held_ms(), 30);
  JobResult r = run_one(*job);
  EXPECT_EQ(r.error, "");
  EXPECT_GE(r.service_ms(), job->held_ms());  // held inside getaddrinfo, on the pool thread
}

TEST(JobClasses, RefuseUnknownAndOutOfRange) {
  EXPECT_THROW(make_job_class("md5", 1), std::invalid_argument);
  EXPECT_THROW(make_job_class("pbkdf2", 0), std::invalid_argument);
  EXPECT_THROW(make_job_class("scrypt", 1000), std::invalid_argument);  // not a power of two
}

TEST(ResolverTiming, LibuvCallsReachTheTimedDefinitions) { EXPECT_TRUE(resolver_calls_are_timed()); }

TEST(Mix, NamedAndCustomInBothSpellings) {
  Mix login = parse_mix("login-heavy");
  EXPECT_EQ(login.name, "login-heavy");
  ASSERT_EQ(login.entries.size(), 2u);
  EXPECT_EQ(login.entries[0].job_class, "pbkdf2");
  Mix a = parse_mix("pbkdf2:20:50000,read:100.5"), b = parse_mix("pbkdf2@20@50000+read@100.5");
  ASSERT_EQ(a.entries.size(), 2u);
  EXPECT_EQ(a.entries[0].size, 50000);
  EXPECT_EQ(a.entries[1].rate_per_s, 100.5);
  EXPECT_EQ(a.entries[1].size, 65536);  // the class's default
  EXPECT_EQ(b.entries[0].size, a.entries[0].size);
  Mix closed = parse_mix("pbkdf2:x4:300000,read:20");
  EXPECT_TRUE(closed.entries[0].closed());
  EXPECT_EQ(closed.entries[0].in_flight, 4);
  for (const auto& named : named_mixes()) EXPECT_EQ(mix_problem(named.name), "") << named.name;
}

TEST(Mix, RefusesWhatIsWrongInOneLine) {
  for (const char* bad : {"", "bogus", "bogus:1", "read", "read:0", "read:abc", "read:1:2:3", "stat:1:5", "read:1,read:2",
                          "pbkdf2:x0", "pbkdf2:x4,scrypt:x2", "read:1,", "pbkdf2:1:0", "scrypt:1:1000", "read:1e9"}) {
    std::string problem = mix_problem(bad);
    EXPECT_NE(problem, "") << bad;
    EXPECT_EQ(problem.find('\n'), std::string::npos) << problem;
  }
  EXPECT_NE(mix_problem("bogus:1").find("valid: pbkdf2, scrypt, deflate, read, stat, lookup, reverse"), std::string::npos);
}
