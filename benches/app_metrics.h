// What the orchestrator's own commands record about a user's Node program: the load it drove
// (`sweep-pool --app`, `doctor`, `probe-cost`), what the pool probe (workloads/probe/) saw inside
// it, and the doctor's verdict. Declared here, like every benchmark's metrics, for benchmarks that
// the orchestrator measures itself (Benchmark::measured_by): list, meta.json and the reports read
// them from the description.
#pragma once

#include <string>
#include <vector>

#include "harness/harness.h"

namespace stallbench::bench {

// The load generator's view of one program under load.
std::vector<Metric> load_metrics();
// The pool probe's view from inside the program during the load.
std::vector<Metric> probe_metrics();
// What the doctor adds: the loop delay its own code explains, the machine, the verdict.
std::vector<Metric> verdict_metrics();
// What probe-cost adds: the program's CPU while idle.
std::vector<Metric> idle_cost_metrics();

// The rate the program is driven at (--rate), the same parameter in all three; `when` ends its doc.
Param rate_param(const std::string& when = "");

// The named metrics of `from`, in the order named; throws std::logic_error for a name it lacks.
std::vector<Metric> pick(const std::vector<Metric>& from, const std::vector<std::string>& names);

}  // namespace stallbench::bench
