// What every stall experiment reports, whatever the work: the three instruments' p50/p99/max,
// the /health probe's latencies, the work's own window, and the timelines the report plots
// (one value per sample, as series). Shared by the `json` and `report` families.
#pragma once

#include <vector>

#include "../workloads/stall/stall_session.h"
#include "harness/harness.h"

namespace stallbench::bench {

// The declarations, to append to a benchmark's own metrics.
std::vector<Metric> session_metrics();

// Fills those metrics from one measured window. Throws when the probe saw a failed request: a
// /health answer that never came is not a latency.
void report_session(Counters& out, const SessionRecord& record);

// The metrics plus the benchmark's own, in that order.
std::vector<Metric> with_session_metrics(std::vector<Metric> own);

}  // namespace stallbench::bench
