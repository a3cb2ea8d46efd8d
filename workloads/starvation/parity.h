// The model beside a real Node line on the shipped scenarios (what family `starvation`'s parity
// benchmark measures; `stallbench trace --node` prints the same comparison): each scenario run on
// Node from its generated JavaScript and on the model of that line, after the model was given
// that Node's measured start-up tail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../loop/scenario.h"

namespace stallbench::loop {

// The shipped scenarios (workloads/loop/scenarios/), by file name.
std::vector<Scenario> shipped_scenarios();

// Node's start-up tail: from the clock read of a main module's first timer to the loop's first
// timers check (workloads/loop/node/startup_tail.cjs), from `runs` runs of `node`.
std::vector<double> node_startup_tails(const std::string& node, int runs);

// The line the model stands for beside `node` ("v20.20.2" -> 20; the newest modelled line when
// the binary's is not modelled).
int modelled_line_of(const std::string& node_version);

struct ScenarioParity {
  int runs = 0;
  double model_expected_pct = 0;  // runs whose order is one the scenario expects on that line
  double node_expected_pct = 0;
  double model_first_pct = 0;     // runs giving its first expected order (a race's odds)
  double node_first_pct = 0;
};

// `runs` runs of `s` on Node (the JavaScript written into `work_dir`) and on the model of `line`.
ScenarioParity scenario_parity(const Scenario& s, const std::string& node, int line, const std::vector<double>& tails,
                               int runs, const std::string& work_dir);

// Program `index` of random series `seed` (random_program.h), written into `work_dir`, run once on
// Node and once on the model of `line` (spending one of `tails` first, where the tail can change
// its order): whether both gave the same order.
bool random_program_agrees(std::uint64_t seed, std::uint64_t index, const std::string& node, int line,
                           const std::vector<double>& tails, const std::string& work_dir);

}  // namespace stallbench::loop
