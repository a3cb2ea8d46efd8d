// A fixture family for the tests of a benchmark's prepare step (tests/python/test_prepare.py): its
// one benchmark waits for a word on the FIFO named by STALLBENCH_TEST_PREPARE_FIFO before its cell
// starts, so its prepare step lasts as long as the test wants, longer than its timeout ("refuse":
// the prepare step fails and the cell is rejected).
#include <cstdlib>
#include <fstream>
#include <string>

#include "benches/harness/harness.h"

using namespace stallbench::bench;

namespace {

void wait_for_the_word(const Cell&) {
  const char* fifo = std::getenv("STALLBENCH_TEST_PREPARE_FIFO");
  if (fifo == nullptr) return;
  std::string word;
  std::ifstream(fifo) >> word;  // opening blocks until the test writes
  if (word == "refuse") throw CellFailure("rejected", "told to refuse while preparing");
}

Repetition make_nothing(const Cell&) {
  return [](Counters& out) {
    out.set("done", 1);
    return 0.0;
  };
}

}  // namespace

int main(int argc, char** argv) {
  Benchmark prepared{.name = "prepared",
                     .doc = "nothing, after a prepare step that waits for the test's word",
                     .params = {{.name = "n", .values = {"1"}, .range = {{1, 10}}}},
                     .metrics = {{.name = "done", .unit = "count", .doc = "1: the repetition ran"}},
                     .timeout_s = 0.5,
                     .make = make_nothing,
                     .prepare = wait_for_the_word};
  return run_main(argc, argv, {.name = "prepare", .doc = "test fixture", .benchmarks = {prepared}});
}
