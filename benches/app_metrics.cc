#include "app_metrics.h"

#include <algorithm>
#include <stdexcept>

namespace stallbench::bench {

std::vector<Metric> load_metrics() {
  return {
      {.name = "latency_p50_ms", .unit = "ms",
       .doc = "median latency, from when loadtest's timer said to send (whole ms)"},
      {.name = "latency_p90_ms", .unit = "ms", .doc = "90th percentile latency"},
      {.name = "latency_p95_ms", .unit = "ms", .doc = "95th percentile latency"},
      {.name = "latency_p99_ms", .unit = "ms", .doc = "99th percentile latency"},
      {.name = "latency_max_ms", .unit = "ms", .doc = "the slowest request"},
      {.name = "latency_mean_ms", .unit = "ms", .tracked = false, .doc = "mean latency"},
      {.name = "service_alone_ms", .unit = "ms", .tracked = false,
       .doc = "median of a few requests sent one at a time to the idle program, before the load"},
      {.name = "throughput_per_s", .unit = "1/s", .better = Better::higher,
       .doc = "answers without error per second"},
      {.name = "offered_per_s", .unit = "1/s", .better = Better::higher, .tracked = false,
       .doc = "requests the load generator was told to send per second"},
      {.name = "completed", .unit = "count", .better = Better::higher, .tracked = false,
       .doc = "answers without error"},
      {.name = "errors", .unit = "count", .doc = "requests that failed, timed out or answered 4xx/5xx"},
      {.name = "unfinished", .unit = "count", .doc = "requests sent but not answered by the end of the drain period"},
      {.name = "app_cpu_util", .unit = "ratio", .tracked = false,
       .doc = "the program's CPU time (its whole process group) / (time x cores)"},
      {.name = "app_rss_peak_mb", .unit = "MiB", .tracked = false,
       .doc = "the program's resident memory at its peak during the load"},
      {.name = "machine_cpu_util", .unit = "ratio", .tracked = false,
       .doc = "every process's CPU use meanwhile (/proc/stat), load generator included"},
      {.name = "app_core_wait_threads", .unit = "count", .tracked = false,
       .doc = "the program's threads that waited for a core, on average (their run-queue time in "
              "/proc/PID/task/TID/schedstat / time); absent where the kernel keeps no schedstat"},
  };
}

std::vector<Metric> probe_metrics() {
  return {
      {.name = "queue_wait_p50_ms", .unit = "ms",
       .doc = "how long pool work submitted during the load waited for a thread (the probe's canaries): median"},
      {.name = "queue_wait_p95_ms", .unit = "ms", .tracked = false, .doc = "the same, 95th percentile"},
      {.name = "queue_wait_p99_ms", .unit = "ms", .doc = "the same, 99th percentile"},
      {.name = "queue_wait_max_ms", .unit = "ms", .tracked = false, .doc = "the same, the longest"},
      {.name = "queue_wait_mean_ms", .unit = "ms",
       .doc = "the same, mean: the latency the pool's queue adds to each pool request on average"},
      {.name = "queue_wait_second_mean_ms", .unit = "ms", .tracked = false,
       .doc = "the mean queue wait of each second of the load, one value per second: the recommendation's "
              "interval is computed from these"},
      {.name = "queue_thread_wait_p50_ms", .unit = "ms",
       .doc = "the canaries' wait for a thread: a canary that found a thread idle counts 0 (it waited for a "
              "core); median"},
      {.name = "queue_thread_wait_p99_ms", .unit = "ms", .doc = "the same, 99th percentile"},
      {.name = "queue_thread_wait_mean_ms", .unit = "ms", .tracked = false, .doc = "the same, mean"},
      {.name = "pool_utilization", .unit = "ratio", .tracked = false,
       .doc = "libuv's threads busy with a job, mean over random instants / threads (read from libuv's own "
              "counters)"},
      {.name = "pool_jobs_waiting", .unit = "count", .tracked = false,
       .doc = "the program's pool jobs waiting for a thread, mean over random instants: the queue length L_q"},
      {.name = "pool_wait_per_request_ms", .unit = "ms",
       .doc = "Little's law: jobs waiting for a thread / requests per second sent: how long each request's pool "
              "work waited for threads in all, however many jobs it was split into"},
      {.name = "pool_wait_per_request_second_ms", .unit = "ms", .tracked = false,
       .doc = "the same for each second of the load, one value per second: the recommendation's interval is "
              "computed from these"},
      {.name = "canaries", .unit = "count", .better = Better::higher, .tracked = false,
       .doc = "canaries submitted during the load"},
      {.name = "canaries_still_waiting", .unit = "count", .tracked = false,
       .doc = "canaries still waiting for a thread when the program was stopped: they count with the wait they "
              "had then, a lower bound"},
      {.name = "delivery_p99_ms", .unit = "ms", .tracked = false,
       .doc = "from a canary's end on its pool thread to its completion running on the main thread (the loop "
              "delivering pool results): 99th percentile"},
      {.name = "loop_delay_p50_ms", .unit = "ms",
       .doc = "how late a 10 ms timer fired in the program during the load: median"},
      {.name = "loop_delay_p99_ms", .unit = "ms", .doc = "the same, 99th percentile"},
      {.name = "loop_delay_max_ms", .unit = "ms", .tracked = false, .doc = "the same, the longest"},
      {.name = "loop_utilization", .unit = "ratio", .tracked = false,
       .doc = "the program's event-loop utilisation during the load"},
  };
}

std::vector<Metric> verdict_metrics() {
  return {
      {.name = "loop_own_p50_ms", .unit = "ms",
       .doc = "the part of each loop delay the program's own code explains (no more than the main thread's CPU "
              "time since the timer's previous firing): median; the blocked verdict reads it"},
      {.name = "loop_own_max_ms", .unit = "ms", .doc = "the same, the longest"},
      {.name = "loop_long_task_share", .unit = "ratio",
       .doc = "the share of the time the loop ran 50 ms or more of its own code between two firings of the "
              "timer (long tasks)"},
      {.name = "machine_busy", .unit = "ratio", .tracked = false,
       .doc = "the share of every core's time not idle, as the probe read /proc/stat"},
      {.name = "startup_ms", .unit = "ms", .tracked = false,
       .doc = "from the probe's start to the loop's first timer: the main module's run"},
      {.name = "verdict_loop_blocked", .unit = "count", .doc = "1 when the verdict says the loop was blocked"},
      {.name = "verdict_pool_saturated", .unit = "count", .doc = "1 when the verdict says the pool was saturated"},
  };
}

std::vector<Metric> idle_cost_metrics() {
  return {
      {.name = "idle_cpu_ms_per_s", .unit = "ms/s", .tracked = false,
       .doc = "the program's CPU per second while idle (no requests), before the load"},
  };
}

Param rate_param(const std::string& when) {
  return {.name = "rate", .values = {"10"}, .doc = "requests per second sent, on a fixed timer (--rate)" + when};
}

std::vector<Metric> pick(const std::vector<Metric>& from, const std::vector<std::string>& names) {
  std::vector<Metric> picked;
  for (const auto& name : names) {
    auto found = std::find_if(from.begin(), from.end(), [&](const Metric& m) { return m.name == name; });
    if (found == from.end()) throw std::logic_error("no metric " + name + " to pick");
    picked.push_back(*found);
  }
  return picked;
}

}  // namespace stallbench::bench
