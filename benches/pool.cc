// Family `pool`: libuv's thread pool saturated by pbkdf2 (seed 000, seed 004).
//
// Each repetition first times one pbkdf2 job alone on the idle pool (the unit every latency can
// be read in, and the reference key), then submits `jobs` identical jobs and, in the same
// synchronous block, one file read, one lookup of "localhost" and one HTTP GET to a server on
// the same loop. It records when each completes, measured on the loop thread as Node's
// callbacks would see it. The pool size is per process (libuv reads UV_THREADPOOL_SIZE once),
// so the orchestrator runs one process per `pool` value.
//
// `runtime` node@LINE runs the same experiment in that Node (workloads/pool/node/saturation.js,
// a child inheriting the pool size), its HTTP request made with `client` fetch or http.get, plus a
// dns.Resolver.resolve4 that needs no pool thread; its keys must equal the C++ pbkdf2's.
//
// In both runtimes a canary, a no-op on the pool queued just before the file read and just before
// the lookup, gives their wait for a thread (fs_queue_wait_ms, dns_queue_wait_ms): in C++ a
// uv_queue_work (workloads/pool/pool_canary.h), in Node the Node-API addon of workloads/probe. A
// build without the addon (no Node-API headers) runs the Node cells without those two metrics.
#include <uv.h>

#include <openssl/crypto.h>
#include <http_parser.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "../workloads/common/machine.h"
#include "../workloads/common/owned_loop.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/net/http_server.h"
#include "../workloads/pool/saturation.h"
#include "../workloads/pool/saturation_node.h"
#include "../workloads/pool/warm_pool.h"
#include "../workloads/probe/canary_addon_path.h"
#include "harness/harness.h"
#include "harness/runtime_param.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

// The metrics both runtimes report about the jobs; returns the last job's completion.
double report_jobs(Counters& out, const std::vector<double>& done_ms, double alone_ms, int jobs, int threads) {
  double last = *std::max_element(done_ms.begin(), done_ms.end());
  out.series("pbkdf2_done_ms", done_ms);
  out.set("pbkdf2_alone_ms", alone_ms);
  out.set("pool_efficiency", pool_efficiency(jobs, last, alone_ms, threads, available_cores()));
  out.set("cores", available_cores());
  return last;
}

// What a cell keeps between repetitions: the loop, the server on it, the file to read.
struct SaturationCell {
  OwnedLoop loop;
  HttpServer server{loop.get()};
  TempFile file{patterned_bytes(64 * 1024), "stallbench-pool"};
  SaturationConfig config;
  int threads = 0;

  double repetition(Counters& out) {
    Key reference;
    double alone_ms = time_pbkdf2_alone(loop.get(), config.pbkdf2, &reference);
    SaturationResult r = run_saturation(loop.get(), config);
    auto problems = check_saturation(r, config, reference, file.bytes());
    if (!problems.empty()) throw std::runtime_error(problems.front());
    double last = report_jobs(out, r.pbkdf2_done_ms, alone_ms, config.jobs, threads);
    out.set("fs_latency_ms", r.fs_ms);
    out.set("dns_latency_ms", r.dns_ms);
    out.set("fs_queue_wait_ms", r.fs_wait_ms);
    out.set("dns_queue_wait_ms", r.dns_wait_ms);
    out.set("tcp_latency_ms", r.tcp_ms);
    out.set("tcp_alone_ms", time_http_get_alone(loop.get(), config.http_port));
    return std::max({last, r.fs_ms, r.dns_ms, r.tcp_ms});
  }
};

// The Node cell: the experiment runs in a Node child per repetition; what C++ keeps is the file
// and the key every Node job must derive.
struct NodeSaturationCell {
  TempFile file{patterned_bytes(64 * 1024), "stallbench-pool"};
  SaturationConfig config;
  std::string node, client;
  std::string canary;  // the addon's path; "" when this build has none
  Key expected;
  int threads = 0;

  double repetition(Counters& out) {
    NodeSaturationResult r = run_saturation_in_node(node, config, client, canary);
    auto problems = check_node_saturation(r, config, expected, file.bytes());
    if (!canary.empty() && !(r.fs_wait_ms && r.dns_wait_ms)) problems.push_back("Node reported no canary waits");
    if (!problems.empty()) throw std::runtime_error(problems.front());
    double last = report_jobs(out, r.pbkdf2_done_ms, r.alone_ms, config.jobs, threads);
    out.set("fs_latency_ms", r.fs_ms);
    out.set("dns_latency_ms", r.dns_ms);
    if (r.fs_wait_ms) out.set("fs_queue_wait_ms", *r.fs_wait_ms);
    if (r.dns_wait_ms) out.set("dns_queue_wait_ms", *r.dns_wait_ms);
    out.set("tcp_latency_ms", r.tcp_ms);
    out.set("tcp_alone_ms", r.tcp_alone_ms);
    out.set("resolve4_latency_ms", r.resolve4_ms);
    return std::max({last, r.fs_ms, r.dns_ms, r.tcp_ms, r.resolve4_ms});
  }
};

SaturationConfig saturation_config(const Cell& cell) {
  SaturationConfig config;
  config.jobs = static_cast<int>(cell.integer("jobs"));
  config.pbkdf2.iterations = static_cast<int>(cell.integer("iters"));
  config.pbkdf2.digest = parse_digest(cell.text("digest"));
  return config;
}

Repetition make_saturation(const Cell& cell) {
  int threads = static_cast<int>(cell.integer("pool"));
  if (runs_in_node(cell)) {
    auto state = std::make_shared<NodeSaturationCell>();
    state->config = saturation_config(cell);
    state->config.file_path = state->file.path();
    state->node = runtime_node_binary(cell);
    state->client = cell.text("client");
    state->expected = pbkdf2(state->config.pbkdf2);
    state->canary = canary_addon_path();
    if (state->canary.empty())  // the orchestrator's notice names the missing headers; the cell log says what it costs
      std::fprintf(stderr, "pool: no pool canary addon in this build: this Node cell reports no queue wait\n");
    state->threads = threads;
    return [state](Counters& out) { return state->repetition(out); };
  }
  auto state = std::make_shared<SaturationCell>();
  state->config = saturation_config(cell);
  state->config.file_path = state->file.path();
  state->config.http_port = state->server.port();
  state->threads = threads;
  warm_pool(state->loop.get(), state->threads);
  return [state](Counters& out) { return state->repetition(out); };
}

Benchmark saturation() {
  return {
      .name = "saturation",
      .doc = "N pbkdf2 jobs fill the pool; one file read, one DNS lookup and one loopback HTTP GET are "
             "issued at the same moment. File and DNS queue behind the jobs; TCP does not.",
      .params =
          {
              {.name = "jobs", .values = {"4", "6"}, .full = {"2", "4", "6", "8"}, .range = {{1, 256}},
               .doc = "pbkdf2 jobs submitted at once"},
              // The default profile's 300,000 (about 0.15 s a job on a 2-core machine) shows seed 000's
              // shape (3,000,000) in a tenth of the time: queued work waits whole jobs all the same; full
              // runs the seed's own count.
              {.name = "iters", .values = {"300000"}, .smoke = {"40000"},
               .full = {"100000", "300000", "1000000", "3000000"}, .nightly = {"300000", "1000000"},
               .range = {{1, 100'000'000}},
               .doc = "pbkdf2 iterations per job (seed 000: 3,000,000; seed 004: 100,000)", .work = true},
              {.name = "digest", .values = {"sha256"}, .full = {"sha256", "sha512"}, .choices = {"sha256", "sha512"},
               .doc = "pbkdf2 digest"},
              // A Node cell costs as much as a C++ one and there is one per chosen line: the default
              // profile keeps to C++ (a few minutes); smoke, nightly and full add Node.
              runtime_param({.values = {"stallbench"}, .smoke = {"stallbench", "node"},
                             .nightly = {"stallbench", "node"}, .full = {"stallbench", "node"}},
                            "stallbench: the C++ loop; node: the same script in each chosen Node line (node@26, ...), "
                            "at most four jobs (seed 000's experiment)"),
              {.name = "client", .values = {"uv", "fetch"}, .smoke = {"uv", "fetch"},
               .full = {"uv", "fetch", "http.get"}, .nightly = {"uv", "fetch"},
               .choices = {"uv", "fetch", "http.get"},
               .doc = "the HTTP request: uv (the C++ cell's GET on its loop), or Node's fetch or http.get"},
              {.name = "pool", .values = {"1", "4", "8"}, .smoke = {"1", "4"}, .full = {"1", "2", "4", "8", "16"},
               .range = {{1, 1024}}, .per_process = true, .env = "UV_THREADPOOL_SIZE",
               .doc = "libuv thread pool size (one process per value)"},
          },
      .metrics =
          {
              {.name = "pbkdf2_done_ms", .unit = "ms", .doc = "completion of each pbkdf2 job, in submission order"},
              {.name = "fs_latency_ms", .unit = "ms", .doc = "file read (open, fstat, read, close) completion"},
              {.name = "dns_latency_ms", .unit = "ms", .doc = "getaddrinfo(\"localhost\") completion"},
              {.name = "fs_queue_wait_ms", .unit = "ms",
               .doc = "the file read's wait for a pool thread: a no-op canary's, queued just before it (Node: "
                      "the Node-API canary, left out without it)"},
              {.name = "dns_queue_wait_ms", .unit = "ms",
               .doc = "the lookup's wait for a thread in libuv's main queue: a canary's, queued just before it"},
              {.name = "tcp_latency_ms", .unit = "ms", .doc = "HTTP GET over loopback completion"},
              {.name = "tcp_alone_ms", .unit = "ms", .tracked = false,
               .doc = "the same HTTP request again after the run, nothing else running: the client's own cost"},
              {.name = "resolve4_latency_ms", .unit = "ms",
               .doc = "Node only: dns.Resolver.resolve4 against our DNS server on 127.0.0.1 (c-ares, no pool)"},
              {.name = "pbkdf2_alone_ms", .unit = "ms", .doc = "one job alone on the idle pool"},
              {.name = "pool_efficiency", .unit = "ratio", .better = Better::higher,
               .doc = "pbkdf2 throughput / (min(pool, cores, jobs) / pbkdf2_alone_ms)"},
              {.name = "cores", .unit = "count", .tracked = false, .doc = "CPUs this process may run on"},
          },
      .timeout_s = 120,
      .make = make_saturation,
      // The C++ cell makes its request with its own GET; a Node cell with fetch or http.get, and only
      // up to seed 000's four jobs (the experiment it reproduces), so every line fits the nightly run.
      .valid =
          [](const Cell& cell) {
            if (!runs_in_node(cell)) return cell.text("client") == "uv";
            return cell.text("client") != "uv" && cell.integer("jobs") <= 4;
          },
      // pbkdf2 dominates the instructions; keep --instructions to the smoke grid (iters 40000):
      // under callgrind the default grid's 3,000,000 iterations take minutes per job.
      .instructions = true,
  };
}

std::string http_parser_version_text() {
  unsigned long v = http_parser_version();
  return std::to_string((v >> 16) & 255) + "." + std::to_string((v >> 8) & 255) + "." + std::to_string(v & 255);
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv,
                  {.name = "pool",
                   .doc = "libuv's thread pool saturated by pbkdf2: who waits behind it",
                   .benchmarks = {saturation()},
                   .versions = {{"libuv", uv_version_string()},
                                {"openssl", OpenSSL_version(OPENSSL_VERSION)},
                                {"http-parser", http_parser_version_text()}}});
}
