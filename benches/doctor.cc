// Family `doctor`: a user's own Node program, diagnosed from inside (`stallbench doctor`) and the
// cost of looking (`stallbench probe-cost`). The workload is the user's program and the instrument
// the pool probe (workloads/probe/); the orchestrator starts, drives and measures the program
// (scripts/stallbench_lib/families/doctor/), so both benchmarks are declared here without cells: list,
// meta.json and the doctor's report read their parameters and metrics from this description.
#include "app_metrics.h"
#include "harness/harness.h"

using namespace stallbench::bench;

namespace {

Param pool_param(const std::string& when) {
  return {.name = "pool", .values = {"4"}, .range = {{1, 1024}}, .doc = "the program's UV_THREADPOOL_SIZE" + when};
}

Benchmark program() {
  std::vector<Metric> metrics = pick(probe_metrics(), {"queue_wait_p50_ms", "queue_wait_p99_ms", "queue_wait_max_ms",
                                                       "queue_wait_mean_ms", "queue_thread_wait_p50_ms",
                                                       "queue_thread_wait_p99_ms", "queue_thread_wait_mean_ms",
                                                       "pool_utilization", "pool_jobs_waiting",
                                                       "pool_wait_per_request_ms", "canaries", "canaries_still_waiting",
                                                       "delivery_p99_ms", "loop_delay_p50_ms", "loop_delay_p99_ms",
                                                       "loop_delay_max_ms", "loop_utilization"});
  for (auto& m : pick(load_metrics(), {"latency_p50_ms", "latency_p99_ms", "latency_max_ms", "throughput_per_s",
                                       "offered_per_s", "errors", "unfinished", "app_cpu_util", "service_alone_ms"}))
    metrics.push_back(m);
  for (auto& m : verdict_metrics()) metrics.push_back(m);
  return {
      .name = "program",
      .doc = "your own Node program (doctor --app COMMAND), driven at a rate (--url) or watched: what the pool probe "
             "saw inside it, the requests' latency, and the verdict (loop blocked, pool saturated, both, neither)",
      .params = {pool_param(" (what its libuv reported, when the doctor only watched)"),
                 {.name = "mode", .values = {"driven"}, .choices = {"driven", "watched"},
                  .doc = "driven: stallbench sent the requests (--url); watched: the user drove the program"},
                 rate_param(" (driven only)")},
      .metrics = metrics,
      .measured_by = "doctor",
  };
}

Benchmark probe_cost() {
  std::vector<Metric> metrics = load_metrics();
  for (auto& m : probe_metrics()) metrics.push_back(m);
  for (auto& m : idle_cost_metrics()) metrics.push_back(m);
  return {
      .name = "probe-cost",
      .doc = "your own Node program (probe-cost --app COMMAND --url URL) with and without the pool probe in paired "
             "rounds: what the probe costs it in CPU, memory and latency",
      .params = {pool_param(""), rate_param(""),
                 {.name = "probe", .values = {"off", "on"}, .choices = {"off", "on"},
                  .doc = "whether the round's program had the probe loaded"},
                 {.name = "exporter", .values = {"prometheus"}, .choices = {"prometheus", "otel"},
                  .doc = "the exporter loaded with the probe (--exporter); rows without it ran none"}},
      .metrics = metrics,
      .measured_by = "probe-cost",
  };
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv,
                  {.name = "doctor",
                   .doc = "your own Node program diagnosed from inside: event loop blocked, thread pool saturated, "
                          "both or neither, and what looking costs",
                   .benchmarks = {program(), probe_cost()}});
}
