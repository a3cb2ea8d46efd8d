// The worked example of docs/adding-a-benchmark.md ("Adding a benchmark to an existing family"), built
// for tests/python/test_added_benchmark.py, which runs it through plan, run, results.csv and report.
// `spread` submits `jobs` identical CPU jobs to libuv's pool at once and records when each completes
// (a series) and how many ran at once. Its pool size is a per-process parameter: the harness exports
// it as UV_THREADPOOL_SIZE before libuv's pool starts, and the cell reads it like any other value.
#include <uv.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "benches/harness/harness.h"
#include "sum_of_squares.h"
#include "workloads/common/owned_loop.h"

using namespace stallbench;
using namespace stallbench::bench;
using stallbench::fixture::expected_sum_of_squares;
using stallbench::fixture::sum_of_squares;

namespace {

using Clock = std::chrono::steady_clock;

struct Spread {
  std::int64_t n = 0;
  Clock::time_point submitted;
  std::atomic<int> running{0}, most_running{0};
  std::vector<double> done_ms;
  std::vector<std::uint64_t> sums;
};

struct Job {
  uv_work_t req{};
  Spread* spread = nullptr;
  std::size_t index = 0;
};

void work(uv_work_t* req) {
  auto* job = static_cast<Job*>(req->data);
  Spread& s = *job->spread;
  int now = ++s.running;
  for (int seen = s.most_running; now > seen && !s.most_running.compare_exchange_weak(seen, now);) {}
  s.sums[job->index] = sum_of_squares(s.n);
  --s.running;
}

void after(uv_work_t* req, int status) {
  auto* job = static_cast<Job*>(req->data);
  uv_check(status, "uv_queue_work");
  job->spread->done_ms[job->index] =
      std::chrono::duration<double, std::milli>(Clock::now() - job->spread->submitted).count();
}

Repetition make_spread(const Cell& cell) {
  auto jobs = static_cast<std::size_t>(cell.integer("jobs"));
  auto pool = static_cast<int>(cell.integer("pool"));  // per process, in the cell like any parameter
  auto n = cell.integer("n");
  auto loop = std::make_shared<OwnedLoop>();
  return [=](Counters& out) {
    Spread s{.n = n, .submitted = Clock::now(), .done_ms = std::vector<double>(jobs), .sums = std::vector<std::uint64_t>(jobs)};
    std::vector<Job> queued(jobs);
    for (std::size_t i = 0; i < jobs; ++i) {
      queued[i] = {.spread = &s, .index = i};
      queued[i].req.data = &queued[i];
      uv_check(uv_queue_work(loop->get(), &queued[i].req, work, after), "uv_queue_work");
    }
    uv_check(uv_run(loop->get(), UV_RUN_DEFAULT), "uv_run");
    if (std::any_of(s.sums.begin(), s.sums.end(), [&](auto sum) { return sum != expected_sum_of_squares(n); }))
      throw std::runtime_error("a job computed the wrong sum");
    if (s.most_running > pool)  // the pool size reached libuv, or this benchmark failed
      throw std::runtime_error(std::to_string(s.most_running.load()) + " jobs ran at once on a pool of " +
                               std::to_string(pool));
    out.series("job_done_ms", s.done_ms);
    out.set("most_running", s.most_running);
    return *std::max_element(s.done_ms.begin(), s.done_ms.end());
  };
}

Benchmark spread() {
  return {
      .name = "spread",
      .doc = "jobs identical CPU jobs submitted to libuv's pool at once: when each completes",
      .params = {{.name = "jobs", .values = {"4"}, .range = {{1, 64}}, .doc = "jobs submitted at once"},
                 {.name = "n", .values = {"1000000"}, .range = {{1, 100'000'000}}, .doc = "loop length of each job",
                  .work = true},
                 {.name = "pool", .values = {"1", "2"}, .smoke = {"1", "2"}, .range = {{1, 1024}},
                  .per_process = true, .env = "UV_THREADPOOL_SIZE", .doc = "libuv thread pool size"}},
      .metrics = {{.name = "job_done_ms", .unit = "ms", .doc = "each job's completion, in submission order"},
                  {.name = "most_running", .unit = "count", .tracked = false,
                   .doc = "jobs seen running at once: at most the pool size"}},
      .timeout_s = 60,
      .make = make_spread,
  };
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, {.name = "tiny-pool", .doc = "test fixture: the guide's added benchmark",
                               .benchmarks = {spread()}, .versions = {{"libuv", uv_version_string()}}});
}
