#include "starvation_node.h"

#include <sstream>

#include "../common/node_process.h"

#ifndef STALLBENCH_STARVATION_NODE_DIR
#error "STALLBENCH_STARVATION_NODE_DIR must name workloads/starvation/node (set by CMake)"
#endif

namespace stallbench::loop::node_peer {
namespace {

const std::string kScript = std::string(STALLBENCH_STARVATION_NODE_DIR) + "/starvation.js";

std::string text(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace

RescheduleResult run_reschedule(const std::string& node, Scheduler scheduler, std::int64_t n, const std::string& file_path) {
  auto j = run_node_json(node, {kScript, "reschedule", std::string(scheduler_name(scheduler)), std::to_string(n), file_path});
  RescheduleResult r;
  r.calls = j.at("calls");
  r.calls_before_timer = j.at("calls_before_timer");
  r.calls_before_io = j.at("calls_before_io");
  r.total_ms = j.at("total_ms");
  r.bytes_read = j.at("bytes_read");
  return r;
}

BusyTimerResult run_busy_timer(const std::string& node, double busy_ms, double timer_ms) {
  auto j = run_node_json(node, {kScript, "busy_timer", text(busy_ms), text(timer_ms)});
  return {j.at("timer_fired_ms"), j.at("busy_done_ms")};
}

AsyncHashResult run_async_pbkdf2(const std::string& node, int calls, int iterations, double interval_ms) {
  auto j = run_node_json(node, {kScript, "async_pbkdf2", std::to_string(calls), std::to_string(iterations), text(interval_ms)});
  return {j.at("returned_ms"), j.at("ticks_before_return"), j.at("ticks_before_resume"), j.at("last_key_hex")};
}

}  // namespace stallbench::loop::node_peer
