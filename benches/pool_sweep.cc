// Family `pool-sweep`: UV_THREADPOOL_SIZE tuning (seeds 000, 004). One process per pool size.
//
// `open-loop`: a mix of job classes arrives at the pool at random for `duration` seconds,
// independent of completions; per class it reports latency percentiles split into queue wait
// and service, throughput, what was dropped or left unfinished, and the queueing model's
// prediction from single-job times measured just before; `runtime` node@LINE runs the same arrivals
// with Node's own crypto, zlib, fs and dns (workloads/pool_sweep/node/open_loop.js). In both, a
// canary queued just before every job gives its first wait for a thread (`pool_wait_*`, beside the
// model's `predicted_pool_wait_*`): the wait measured the same way in every runtime. Node sees no
// more than that: its queue wait and service only for classes of one trip through the queue, and
// without the canary addon, latency only. `slow-dns`: nodejs/node#8436, a burst
// of 100 ms lookups through a DNS server of our own in a private namespace, and one file read.
#include <uv.h>

#include <openssl/crypto.h>
#include <zlib.h>

#include <cstdio>
#include <memory>

#include "../workloads/common/owned_loop.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/pool/warm_pool.h"
#include "../workloads/pool_sweep/delaying_dns_server.h"
#include "../workloads/pool_sweep/mix.h"
#include "../workloads/pool_sweep/node_sweep_run.h"
#include "../workloads/pool_sweep/private_resolver.h"
#include "../workloads/pool_sweep/slow_dns_burst.h"
#include "../workloads/pool_sweep/sweep_run.h"
#include "app_metrics.h"
#include "harness/harness.h"
#include "harness/runtime_param.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

void report_percentiles(Counters& out, const Subcase& c, const std::string& stem, const Percentiles& p) {
  out.set(stem + "_p50_ms", c, p.p50);
  out.set(stem + "_p95_ms", c, p.p95);
  out.set(stem + "_p99_ms", c, p.p99);
  out.set(stem + "_max_ms", c, p.max);
}

void report_run(Counters& out, const SweepRun& run) {
  for (const auto& s : run.classes) {
    Subcase c{{"class", s.name}};
    report_percentiles(out, c, "latency", s.latency_ms);
    if (s.split_measured) {
      report_percentiles(out, c, "queue_wait", s.wait_ms);
      report_percentiles(out, c, "service", s.service_ms);
    }
    if (s.pool_wait_measured) {
      out.set("pool_wait_p50_ms", c, s.pool_wait_ms.p50);
      out.set("pool_wait_p99_ms", c, s.pool_wait_ms.p99);
    }
    out.set("predicted_pool_wait_p50_ms", c, s.predicted_pool_wait_p50_ms);
    out.set("predicted_pool_wait_p99_ms", c, s.predicted_pool_wait_p99_ms);
    out.set("throughput_per_s", c, s.throughput_per_s);
    out.set("offered_per_s", c, s.offered_per_s);
    out.set("completed", c, static_cast<double>(s.completed));
    out.set("dropped", c, static_cast<double>(s.dropped));
    out.set("unfinished", c, static_cast<double>(s.unfinished));
    out.set("service_alone_ms", c, s.alone_ms);
    out.set("predicted_p50_ms", c, s.predicted_p50_ms);
    out.set("predicted_p99_ms", c, s.predicted_p99_ms);
    out.set("predicted_throughput_per_s", c, s.predicted_throughput_per_s);
    out.set("predicted_enough_cores_p50_ms", c, s.predicted_enough_cores_p50_ms);
  }
  out.set("cpu_util", run.cpu_util);
  if (run.machine_cpu_util >= 0) out.set("machine_cpu_util", run.machine_cpu_util);
  out.set("predicted_cpu_util", run.predicted_cpu_util);
  out.set("effective_cores", run.effective_cores);
  out.set("busy_cores_delay_ms", run.busy_cores_delay_ms);
  out.set("cores", run.cores);
  out.set("drain_s", run.drain_s);
}

template <typename Runner>
Repetition open_loop_repetitions(std::shared_ptr<OwnedLoop> loop, std::shared_ptr<Runner> runner, double duration) {
  auto repetition = std::make_shared<std::uint64_t>(0);
  return [loop, runner, duration, repetition](Counters& out) {
    report_run(out, runner->run(duration, ++*repetition));  // the seed: the same arrivals in every runtime
    return duration * 1000;
  };
}

Repetition make_open_loop(const Cell& cell) {
  auto loop = std::make_shared<OwnedLoop>();
  int threads = static_cast<int>(cell.integer("pool"));
  warm_pool(loop->get(), threads);
  Mix mix = parse_mix(cell.text("mix"));
  double duration = static_cast<double>(cell.integer("duration"));
  if (!runs_in_node(cell))
    return open_loop_repetitions(loop, std::make_shared<MixRunner>(loop->get(), mix, threads), duration);
  try {
    auto runner = std::make_shared<NodeMixRunner>(loop->get(), mix, threads, runtime_node_binary(cell));
    if (!runner->has_canary())  // the orchestrator's notice names the missing headers; the cell log says what it costs
      std::fprintf(stderr, "pool-sweep: no pool canary addon in this build: this Node cell reports latency only\n");
    return open_loop_repetitions(loop, runner, duration);
  } catch (const std::invalid_argument& e) {
    throw CellFailure("rejected", e.what());
  }
}

std::vector<Metric> open_loop_metrics() {
  std::vector<Metric> m;
  for (auto [stem, what] : {std::pair{"latency", "arrival to completion"}, {"queue_wait", "latency minus service: waiting "
                            "in libuv's queue and for the loop (Node: arrival to the first thread, for classes of one trip "
                            "through the queue only: pbkdf2, scrypt, deflate, stat, and read in Node 26; with the canary addon)"}, {"service", "time on pool threads (Node: latency minus "
                            "queue wait, the callback's delivery included)"}})
    for (auto [p, label] : {std::pair{"p50", "median"}, {"p95", "95th percentile"}, {"p99", "99th percentile"}, {"max", "maximum"}})
      m.push_back({.name = std::string(stem) + "_" + p + "_ms", .unit = "ms", .doc = std::string(label) + " of " + what + ", per class"});
  for (auto [p, label] : {std::pair{"p50", "median"}, {"p99", "99th percentile"}})
    m.push_back({.name = std::string("pool_wait_") + p + "_ms", .unit = "ms",
                 .doc = std::string(label) + " of a job's first wait for a thread in libuv's main queue, per class: a no-op "
                        "canary's, queued just before the job (C++: uv_queue_work; Node: the Node-API canary, left out "
                        "without it); a read's first trip (of four; one in Node 26); a lookup's main queue, not the slow-I/O queue"});
  auto context = [](std::string name, std::string unit, std::string doc) {
    return Metric{.name = std::move(name), .unit = std::move(unit), .tracked = false, .doc = std::move(doc)};
  };
  m.push_back({.name = "throughput_per_s", .unit = "1/s", .better = Better::higher, .doc = "completions in the window per second, per class"});
  m.push_back(context("offered_per_s", "1/s", "arrivals (or submissions of a class kept in flight) per second, per class"));
  m.push_back(context("completed", "count", "jobs completed by the end of the drain period, per class"));
  m.push_back({.name = "dropped", .unit = "count", .doc = "arrivals not submitted because 5000 jobs were already out"});
  m.push_back({.name = "unfinished", .unit = "count", .doc = "jobs not completed by the end of the drain period (queued ones cancelled)"});
  m.push_back(context("service_alone_ms", "ms", "one job's service time on the otherwise idle pool, before and after the run (the model's input); "
                      "Node: one job's latency alone, as JavaScript sees it"));
  m.push_back(context("predicted_p50_ms", "ms", "the queueing model's median latency, per class"));
  m.push_back(context("predicted_p99_ms", "ms", "the queueing model's 99th percentile latency, per class"));
  m.push_back(context("predicted_throughput_per_s", "1/s", "the model's throughput, per class"));
  m.push_back(context("predicted_enough_cores_p50_ms", "ms", "the model's median latency with a core for every thread"));
  m.push_back(context("predicted_pool_wait_p50_ms", "ms", "the model's median pool_wait: a no-op's wait in the shared "
                      "queue (with a class holding every thread: the first trip's wait for a wave to end)"));
  m.push_back(context("predicted_pool_wait_p99_ms", "ms", "the model's 99th percentile pool_wait"));
  m.push_back(context("cpu_util", "ratio", "this process's CPU time over the window / (window x available cores)"));
  m.push_back(context("machine_cpu_util", "ratio", "every process's CPU use in the window (/proc/stat): the noise"));
  m.push_back(context("predicted_cpu_util", "ratio", "the model's CPU use / available cores"));
  m.push_back(context("effective_cores", "count", "cores CPU-bound threads really got side by side, before and after the run"));
  m.push_back(context("busy_cores_delay_ms", "ms", "how much later a one-step job completes when it arrives while "
                      "every core computes, before and after the run"));
  m.push_back(context("cores", "count", "CPUs this process may run on"));
  m.push_back(context("drain_s", "s", "how long jobs out at the end of the window were given to finish"));
  return m;
}

Benchmark open_loop() {
  return {
      .name = "open-loop",
      .doc = "a mix of job classes arrives at libuv's pool at random (open loop); per class latency split into "
             "queue wait and service, throughput, unfinished work, and the queueing model's prediction",
      .params =
          {
              {.name = "mix", .values = {"login-heavy"}, .smoke = {"pbkdf2@20@20000+read@50"},
               .full = {"login-heavy", "static-dns", "compression", "seed-000"},
               .doc = "a named mix (login-heavy, static-dns, compression, seed-000) or CLASS@RATE[@SIZE]+...",
               .check = mix_problem},
              // The default profile's 2 s of arrivals keep its five sizes within a minute; nightly's 3 s
              // are what its history compares night to night.
              {.name = "duration", .values = {"2"}, .smoke = {"1"}, .full = {"10"}, .nightly = {"3"}, .range = {{1, 60}},
               .doc = "seconds of arrivals per repetition"},
              // Each Node line costs as much as the C++ sweep (the nightly profile's nine rounds of six
              // sizes would take half an hour for five lines), so the default and nightly profiles keep
              // to the C++ runtime; `sweep-pool` (by default the newest line and system) and `full` run both.
              runtime_param({.values = {"stallbench"}, .full = {"stallbench", "node"}},
                            "stallbench: the C++ runner; node: the same arrivals in each chosen Node line (node@26, ...)"),
              // Sizes past 16 only add CPU sharing on a small machine: the default profile stops there;
              // nightly and full go on to 32 and 64.
              {.name = "pool", .values = {"1", "2", "4", "8", "16"}, .smoke = {"2"},
               .full = {"1", "2", "4", "8", "16", "32", "64"}, .nightly = {"1", "2", "4", "8", "16", "32"},
               .range = {{1, 1024}}, .per_process = true,
               .env = "UV_THREADPOOL_SIZE",
               .doc = "libuv thread pool size (one process per value)"},
          },
      .metrics = open_loop_metrics(),
      .timeout_s = 240,
      .make = make_open_loop,
  };
}

// The private resolver and its server exist once per process: the namespace must be entered
// before any thread starts, and the server holds port 53.
struct SlowDnsProcess {
  PrivateResolver resolver;
  DelayingDnsServer server{resolver, std::chrono::milliseconds(100)};
};

bool kind_is_dns(const Cell& cell) { return cell.text("lookup_kind") == "getaddrinfo"; }

Repetition make_slow_dns(const Cell& cell) {
  static std::unique_ptr<SlowDnsProcess> dns;
  if (kind_is_dns(cell) && !dns) dns = std::make_unique<SlowDnsProcess>();
  auto loop = std::make_shared<OwnedLoop>();
  auto file = std::make_shared<TempFile>(patterned_bytes(64 * 1024), "stallbench-slow-dns");
  warm_pool(loop->get(), static_cast<int>(cell.integer("pool")));
  SlowDnsConfig config{static_cast<int>(cell.integer("lookups")), std::chrono::milliseconds(cell.integer("delay_ms")), file->path()};
  return [loop, file, config, dns = dns.get()](Counters& out) {
    if (dns) dns->server.set_delay(config.delay);
    SlowDnsResult r = dns ? run_slow_dns_burst(loop->get(), dns->resolver, dns->server, config)
                          : run_blocking_work_burst(loop->get(), config);
    if (!r.errors.empty()) throw std::runtime_error(r.errors.front());
    if (r.file_bytes != file->bytes()) throw std::runtime_error("the file read returned the wrong bytes");
    double drained = *std::max_element(r.lookup_done_ms.begin(), r.lookup_done_ms.end());
    out.set("read_latency_ms", r.read_ms);
    out.series("lookup_done_ms", r.lookup_done_ms);
    out.set("lookups_drained_ms", drained);
    out.set("max_concurrent_lookups", r.max_concurrent);
    out.set("read_before_drain", r.read_ms < drained ? 1 : 0);
    return std::max(drained, r.read_ms);
  };
}

Benchmark slow_dns() {
  return {
      .name = "slow-dns",
      .doc = "nodejs/node#8436: a burst of slow lookups (a delaying DNS server of our own in a private namespace) "
             "and one file read; libuv's slow-I/O cap leaves threads for the read",
      .params =
          {
              {.name = "lookups", .values = {"8"}, .range = {{1, 64}}, .doc = "lookups in the burst"},
              {.name = "delay_ms", .values = {"100"}, .smoke = {"50"}, .range = {{1, 2000}},
               .doc = "how long the DNS server holds each answer"},
              {.name = "lookup_kind", .values = {"getaddrinfo", "blocking-work"}, .smoke = {"getaddrinfo"},
               .choices = {"getaddrinfo", "blocking-work"}, .per_process = true,
               .doc = "getaddrinfo: real lookups (slow I/O, capped); blocking-work: the same waits as ordinary pool "
                      "work, as lookups were before libuv's cap (one process per value)"},
              {.name = "pool", .values = {"1", "2", "4", "8"}, .smoke = {"4"}, .full = {"1", "2", "4", "8", "16"},
               .range = {{1, 1024}}, .per_process = true, .env = "UV_THREADPOOL_SIZE",
               .doc = "libuv thread pool size (one process per value)"},
          },
      .metrics =
          {
              {.name = "read_latency_ms", .unit = "ms", .doc = "the file read's completion after the burst"},
              {.name = "lookup_done_ms", .unit = "ms", .doc = "each lookup's completion, in submission order"},
              {.name = "lookups_drained_ms", .unit = "ms", .doc = "the last lookup's completion"},
              {.name = "max_concurrent_lookups", .unit = "count", .tracked = false,
               .doc = "lookups the DNS server (or the pool) saw running at once: libuv's cap is (pool+1)/2"},
              {.name = "read_before_drain", .unit = "count", .better = Better::higher,
               .doc = "1 when the read completed before the last lookup"},
          },
      .timeout_s = 180,
      .make = make_slow_dns,
      // Real lookups need the private namespace; where this process may not create one (not
      // root), those cells are left out and the report says why.
      .valid = [](const Cell& cell) { return !kind_is_dns(cell) || private_resolver_unavailable().empty(); },
  };
}

// `sweep-pool --app`: the user's own program started at each pool size and driven at a rate; the
// orchestrator measures it (families/pool_sweep/app_run.py), so it has no cells here.
Benchmark app() {
  std::vector<Metric> metrics = load_metrics();
  for (auto& m : probe_metrics()) metrics.push_back(m);
  return {
      .name = "app",
      .doc = "your own program (sweep-pool --app COMMAND --url URL) at each pool size, driven at a fixed rate: "
             "latency, throughput and, with the pool probe loaded into it, pool wait and loop delay",
      .params = {{.name = "pool", .values = {"1", "2", "4", "8", "16", "32"}, .range = {{1, 1024}},
                  .doc = "UV_THREADPOOL_SIZE the program was started with (one start per size)"},
                 rate_param(),
                 {.name = "duration", .values = {"5"}, .range = {{1, 60}},
                  .doc = "seconds of requests per size and repetition (--duration)"}},
      .metrics = metrics,
      .measured_by = "sweep-pool --app",
  };
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv,
                  {.name = "pool-sweep",
                   .doc = "UV_THREADPOOL_SIZE tuning: mixed pool work across pool sizes, measured and predicted",
                   .benchmarks = {open_loop(), slow_dns(), app()},
                   .versions = {{"libuv", uv_version_string()},
                                {"openssl", OpenSSL_version(OPENSSL_VERSION)},
                                {"zlib", zlibVersion()}}});
}
