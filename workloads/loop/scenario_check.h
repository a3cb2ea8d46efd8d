// The checks of a scenario that need the whole program: names given once and cleared by the
// right op, a close inside the open whose file it closes, top-level await where an ES module can
// have it, and what one run costs (callbacks, time), so that a scenario that would run without
// bound (intervals inside intervals) or past the trace's limit is refused before it runs.
#pragma once

#include <functional>
#include <string>

#include "scenario.h"

namespace stallbench::loop {

// Callbacks one run may make at most.
constexpr double kMaxCallbacksPerRun = 100'000;

// `fail(where, problem)` throws; check_scenario also sets s.min_run_ms.
using CheckFailure = std::function<void(const std::string& where, const std::string& problem)>;
void check_scenario(Scenario& s, const CheckFailure& fail);

}  // namespace stallbench::loop
