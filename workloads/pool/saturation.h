// Seed 000's pool experiment: N slow pbkdf2 jobs fill libuv's thread pool, and at the same
// moment one file read, one lookup of "localhost" and one HTTP request over loopback are issued
// (behind_jobs.h). File and DNS work go through the same pool and queue behind the jobs; TCP does not.
// A canary (pool_canary.h) queued just before the read and just before the lookup says how long
// each waited for a thread, as the Node cell's Node-API canary does.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../net/http_get.h"
#include "behind_jobs.h"
#include "pbkdf2_job.h"

namespace stallbench {

struct SaturationConfig {
  int jobs = 4;
  Pbkdf2Params pbkdf2;
  std::string file_path;               // the file the fs probe reads
  std::string host = "localhost";      // resolved from the hosts file only
  std::uint16_t http_port = 0;         // a server on the same loop (HttpServer)
};

struct SaturationResult {
  std::vector<double> pbkdf2_done_ms;  // by job, in submission order
  double fs_ms = 0, dns_ms = 0, tcp_ms = 0;
  double fs_wait_ms = 0, dns_wait_ms = 0;  // the canaries' waits for a thread (the lookup's: main queue)
  std::vector<Completion> order;       // everything, the canaries too, in the order the loop saw it complete
  // The answers, so the run is also a correctness check.
  std::vector<Key> keys;
  std::string file_bytes;
  std::string address;
  HttpGetResult http;
  std::vector<std::string> errors;     // from any callback; empty when all went well
};

// The jobs and the three probes through run_behind_jobs: everything in one synchronous block, as
// the seed's script does, and the loop run until all of it has completed.
SaturationResult run_saturation(uv_loop_t* loop, const SaturationConfig& config);

// What went wrong, compared with what must come back: every key equal to `expected_key`, the
// file's bytes, a loopback address, a 200 "ok". Empty when the answers are right.
std::vector<std::string> check_saturation(const SaturationResult& result, const SaturationConfig& config,
                                          const Key& expected_key, const std::string& expected_bytes);

// pbkdf2 throughput with `threads` pool threads relative to the physical ceiling: at most
// min(threads, cores, jobs) jobs run at a time, each taking `alone_ms`.
double pool_efficiency(int jobs, double last_done_ms, double alone_ms, int threads, int cores);

}  // namespace stallbench
