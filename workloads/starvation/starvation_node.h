// The starvation experiments of starvation.h run by Node (node/starvation.js), returning the
// same results, so each figure can be set beside the runtime's from the same run.
#pragma once

#include "starvation.h"

namespace stallbench::loop::node_peer {

// `node` is the binary to run (find_node()). Each throws std::runtime_error when Node fails.
RescheduleResult run_reschedule(const std::string& node, Scheduler scheduler, std::int64_t n, const std::string& file_path);
BusyTimerResult run_busy_timer(const std::string& node, double busy_ms, double timer_ms);
AsyncHashResult run_async_pbkdf2(const std::string& node, int calls, int iterations, double interval_ms);

}  // namespace stallbench::loop::node_peer
