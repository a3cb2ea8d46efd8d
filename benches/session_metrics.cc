#include "session_metrics.h"

#include <stdexcept>

namespace stallbench::bench {

namespace {

void add_summary(std::vector<Metric>& m, const std::string& stem, const std::string& unit, const std::string& what,
                 bool tracked_max) {
  m.push_back({.name = stem + "_p50" + (unit == "ms" ? "_ms" : ""), .unit = unit, .tracked = false, .doc = what + ", median"});
  m.push_back({.name = stem + "_p99" + (unit == "ms" ? "_ms" : ""), .unit = unit, .doc = what + ", 99th percentile"});
  m.push_back({.name = stem + "_max" + (unit == "ms" ? "_ms" : ""), .unit = unit, .tracked = tracked_max, .doc = what + ", maximum"});
}

void set_summary(Counters& out, const std::string& stem, const std::string& suffix, const Summary& s) {
  out.set(stem + "_p50" + suffix, s.p50);
  out.set(stem + "_p99" + suffix, s.p99);
  out.set(stem + "_max" + suffix, s.max);
}

}  // namespace

std::vector<Metric> session_metrics() {
  std::vector<Metric> m;
  add_summary(m, "loop_delay", "ms", "delay monitor (monitorEventLoopDelay, resolution 10 ms): gap between timer firings", true);
  add_summary(m, "stall", "ms", "exact stall meter: busy time of each loop iteration", true);
  add_summary(m, "elu", "ratio", "event-loop utilisation per 100 ms window (performance.eventLoopUtilization)", false);
  add_summary(m, "health", "ms", "GET /health latency, one request every 20 ms from another thread", true);
  m.push_back({.name = "elu_overall", .unit = "ratio", .doc = "event-loop utilisation over the whole window"});
  m.push_back({.name = "health_count", .unit = "count", .tracked = false, .doc = "/health responses recorded"});
  m.push_back({.name = "stalls_over_1ms", .unit = "count", .doc = "loop iterations busy for 1 ms or more"});
  m.push_back({.name = "iterations", .unit = "count", .tracked = false, .doc = "loop iterations in the window"});
  m.push_back({.name = "work_start_ms", .unit = "ms", .tracked = false, .doc = "when the work began, since the window began"});
  m.push_back({.name = "work_end_ms", .unit = "ms", .tracked = false, .doc = "when the work's answer was on the loop"});
  m.push_back({.name = "delay_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: each delay sample's time"});
  m.push_back({.name = "delay_ms", .unit = "ms", .tracked = false, .doc = "timeline: each delay sample (same order)"});
  m.push_back({.name = "stall_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: start of each stall over 1 ms"});
  m.push_back({.name = "stall_ms", .unit = "ms", .tracked = false, .doc = "timeline: each stall over 1 ms (same order)"});
  m.push_back({.name = "health_sent_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each /health request was sent"});
  m.push_back({.name = "health_latency_ms", .unit = "ms", .tracked = false, .doc = "every /health latency (same order)"});
  return m;
}

std::vector<Metric> with_session_metrics(std::vector<Metric> own) {
  auto all = session_metrics();
  all.insert(all.begin(), own.begin(), own.end());
  return all;
}

void report_session(Counters& out, const SessionRecord& record) {
  const auto& health = record.health;
  if (health.failures > 0)
    throw std::runtime_error(std::to_string(health.failures) + " /health requests failed: " + health.first_failure);
  const auto& r = record.instruments;
  set_summary(out, "loop_delay", "_ms", r.delay);
  set_summary(out, "stall", "_ms", r.stall);
  set_summary(out, "elu", "", r.elu);
  set_summary(out, "health", "_ms", health.latency());
  out.set("elu_overall", r.elu_overall);
  out.set("health_count", static_cast<double>(health.samples.size()));
  out.set("stalls_over_1ms", static_cast<double>(r.stalls.size()));
  out.set("iterations", static_cast<double>(r.iterations));
  out.set("work_start_ms", record.work_start_ms);
  out.set("work_end_ms", record.work_end_ms);
  std::vector<double> at, value;
  for (const auto& d : r.delays) at.push_back(d.at_ms), value.push_back(d.delay_ms);
  out.series("delay_at_ms", at);
  out.series("delay_ms", value);
  at.clear(), value.clear();
  for (const auto& s : r.stalls) at.push_back(s.at_ms), value.push_back(s.ms);
  out.series("stall_at_ms", at);
  out.series("stall_ms", value);
  at.clear(), value.clear();
  for (const auto& h : health.samples) at.push_back(h.sent_ms), value.push_back(h.latency_ms);
  out.series("health_sent_ms", at);
  out.series("health_latency_ms", value);
}

}  // namespace stallbench::bench
