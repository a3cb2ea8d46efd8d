// The A/B knob: STALLBENCH_INJECT_WORK scales only the named benchmark's `work` parameters.
#include <gtest/gtest.h>

#include <cstdlib>

#include "benches/harness/inject.h"

using namespace stallbench::bench;

static Benchmark worker() {
  return {.name = "spin",
          .params = {{.name = "iters", .values = {"1000"}, .range = {{1, 100000}}, .work = true},
                     {.name = "mode", .values = {"a"}, .choices = {"a", "b"}}},
          .metrics = {{.name = "x_ms", .unit = "ms"}}};
}

TEST(InjectedWork, ScalesOnlyWorkParameters) {
  Cell cell({{"iters", "1000"}, {"mode", "a"}});
  Cell more = with_injected_work(worker(), cell, 10);
  EXPECT_EQ(more.integer("iters"), 1100);
  EXPECT_EQ(more.text("mode"), "a");
  EXPECT_EQ(with_injected_work(worker(), cell, 0.01).integer("iters"), 1001);  // at least one more
}

TEST(InjectedWork, RefusesWhatItCannotScale) {
  Benchmark no_work = worker();
  no_work.params[0].work = false;
  EXPECT_THROW(with_injected_work(no_work, Cell({{"iters", "1000"}, {"mode", "a"}}), 10), std::invalid_argument);
  EXPECT_THROW(with_injected_work(worker(), Cell({{"iters", "99999"}, {"mode", "a"}}), 10), std::invalid_argument);
}

TEST(InjectedWork, VariableNamesOneBenchmark) {
  unsetenv(kInjectWorkVariable);
  EXPECT_FALSE(injected_work_pct("fam", "spin"));
  setenv(kInjectWorkVariable, "fam/spin:2.5", 1);
  EXPECT_DOUBLE_EQ(*injected_work_pct("fam", "spin"), 2.5);
  EXPECT_FALSE(injected_work_pct("fam", "other"));
  EXPECT_FALSE(injected_work_pct("other", "spin"));
  for (const char* bad : {"fam/spin", "fam/spin:", "fam/spin:x", "fam/spin:0", "fam/spin:-3", "fam/spin:5000"}) {
    setenv(kInjectWorkVariable, bad, 1);
    EXPECT_THROW(injected_work_pct("fam", "spin"), std::invalid_argument) << bad;
  }
  unsetenv(kInjectWorkVariable);
}
