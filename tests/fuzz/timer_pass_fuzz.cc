// Timers due in one pass with clears between them (workloads/loop/timer_pass_program.h), decoded from
// any bytes, run on the model of every line: every run ends with an order and no exception (the
// model once looked up a list a microtask had emptied and threw), and a timer is printed at most
// once (each ticks once). Node's answer for such programs is checked by `stallbench_trace timer-pass`
// and tests/python/test_trace_random.py.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>

#include "workloads/loop/scenario.h"
#include "workloads/loop/temporary_folder.h"
#include "workloads/loop/timer_pass_program.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stallbench::loop;
  static TemporaryFolder folder;
  std::string path = (folder.path() / "timer-pass.json").string();
  std::ofstream(path) << timer_pass_program(data, size, "fuzz").dump();
  Scenario scenario = load_scenario(path);  // any bytes make a valid scenario: a throw here is a bug
  to_javascript(scenario);
  for (int line : modelled_lines()) {
    Order order = run_scenario(scenario, {.line = line});
    std::set<std::string> timers;
    for (const auto& label : order)
      if (label.rfind("timeout t", 0) == 0 || label.rfind("interval t", 0) == 0)
        if (!timers.insert(label).second) std::abort();  // a timer that ran twice
  }
  return 0;
}
