// A tiny CPU-bound family for the tests of `run --instructions`, of the A/B knob and of `ab`: a fixed
// integer loop whose instruction count depends only on `n`, and which checks its own answer.
#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "benches/harness/harness.h"
#include "sum_of_squares.h"

using namespace stallbench::bench;
using stallbench::fixture::expected_sum_of_squares;
using stallbench::fixture::sum_of_squares;

namespace {

Repetition make_sum(const Cell& cell) {
  std::int64_t n = cell.integer("n");
  return [n](Counters& out) {
    auto start = std::chrono::steady_clock::now();
    if (sum_of_squares(n) != expected_sum_of_squares(n)) throw std::runtime_error("wrong sum");
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out.set("n_done", static_cast<double>(n));
    out.set("sum_ms", ms);
    return ms;
  };
}

}  // namespace

int main(int argc, char** argv) {
  Benchmark sum{.name = "sum",
                .doc = "sum of squares below n",
                .params = {{.name = "n", .values = {"100000"}, .range = {{1, 100'000'000}}, .work = true}},
                .metrics = {{.name = "n_done", .unit = "count", .tracked = false, .doc = "the n the loop ran to"},
                            {.name = "sum_ms", .unit = "ms", .doc = "time the loop took (what paired A/B tests measure)"}},
                .timeout_s = 60,
                .make = make_sum,
                .instructions = true};
  return run_main(argc, argv, {.name = "tiny", .doc = "test fixture", .benchmarks = {sum}});
}
