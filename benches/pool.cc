// Family `pool`: libuv's thread pool saturated by pbkdf2 (seed 000, seed 004).
//
// Each repetition first times one pbkdf2 job alone on the idle pool (the unit every latency can
// be read in, and the reference key), then submits `jobs` identical jobs and, in the same
// synchronous block, one file read, one lookup of "localhost" and one HTTP GET to a server on
// the same loop. It records when each completes, measured on the loop thread as Node's
// callbacks would see it. The pool size is per process (libuv reads UV_THREADPOOL_SIZE once),
// so the orchestrator runs one process per `pool` value.
#include <uv.h>

#include <openssl/crypto.h>
#include <http_parser.h>

#include <algorithm>
#include <memory>

#include "../workloads/common/machine.h"
#include "../workloads/common/owned_loop.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/net/http_server.h"
#include "../workloads/pool/saturation.h"
#include "harness/harness.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

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

    double last = *std::max_element(r.pbkdf2_done_ms.begin(), r.pbkdf2_done_ms.end());
    out.series("pbkdf2_done_ms", r.pbkdf2_done_ms);
    out.set("fs_latency_ms", r.fs_ms);
    out.set("dns_latency_ms", r.dns_ms);
    out.set("tcp_latency_ms", r.tcp_ms);
    out.set("pbkdf2_alone_ms", alone_ms);
    out.set("pool_efficiency", pool_efficiency(config.jobs, last, alone_ms, threads, available_cores()));
    out.set("cores", available_cores());
    return std::max({last, r.fs_ms, r.dns_ms, r.tcp_ms});
  }
};

Repetition make_saturation(const Cell& cell) {
  auto state = std::make_shared<SaturationCell>();
  state->config.jobs = static_cast<int>(cell.integer("jobs"));
  state->config.pbkdf2.iterations = static_cast<int>(cell.integer("iters"));
  state->config.pbkdf2.digest = parse_digest(cell.text("digest"));
  state->config.file_path = state->file.path();
  state->config.http_port = state->server.port();
  state->threads = static_cast<int>(std::stoi(std::getenv("UV_THREADPOOL_SIZE")));
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
              {.name = "iters", .values = {"300000", "3000000"}, .smoke = {"40000"},
               .full = {"100000", "300000", "1000000", "3000000"}, .nightly = {"300000", "1000000"},
               .range = {{1, 100'000'000}},
               .doc = "pbkdf2 iterations per job (seed 000: 3,000,000; seed 004: 100,000)", .work = true},
              {.name = "digest", .values = {"sha256"}, .full = {"sha256", "sha512"}, .choices = {"sha256", "sha512"},
               .doc = "pbkdf2 digest"},
              {.name = "pool", .values = {"1", "4", "8"}, .smoke = {"1", "4"}, .full = {"1", "2", "4", "8", "16"},
               .range = {{1, 1024}}, .env = "UV_THREADPOOL_SIZE",
               .doc = "libuv thread pool size (one process per value)"},
          },
      .metrics =
          {
              {.name = "pbkdf2_done_ms", .unit = "ms", .doc = "completion of each pbkdf2 job, in submission order"},
              {.name = "fs_latency_ms", .unit = "ms", .doc = "file read (open, fstat, read, close) completion"},
              {.name = "dns_latency_ms", .unit = "ms", .doc = "getaddrinfo(\"localhost\") completion"},
              {.name = "tcp_latency_ms", .unit = "ms", .doc = "HTTP GET over loopback completion"},
              {.name = "pbkdf2_alone_ms", .unit = "ms", .doc = "one job alone on the idle pool"},
              {.name = "pool_efficiency", .unit = "ratio", .better = Better::higher,
               .doc = "pbkdf2 throughput / (min(pool, cores, jobs) / pbkdf2_alone_ms)"},
              {.name = "cores", .unit = "count", .tracked = false, .doc = "CPUs this process may run on"},
          },
      .timeout_s = 120,
      .make = make_saturation,
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
