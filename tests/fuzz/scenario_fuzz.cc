// The scenario loader (workloads/loop/scenario_load.cc) on any bytes: it either loads the scenario
// or throws ScenarioError with one line; anything else (another exception, a crash, a sanitizer
// report) is a bug. A loaded scenario is also turned into JavaScript, as `trace --node` does.
#include <cstddef>
#include <cstdint>

#include "memory_file.h"
#include "workloads/loop/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stallbench::fuzz::MemoryFile file(data, size);
  try {
    stallbench::loop::Scenario scenario = stallbench::loop::load_scenario(file.path());
    stallbench::loop::to_javascript(scenario);
  } catch (const stallbench::loop::ScenarioError&) {
  }
  return 0;
}
