#include "saturation.h"

#include <algorithm>

#include "file_read.h"
#include "lookup.h"
#include "pool_canary.h"

namespace stallbench {
namespace {

// A probe that queues a canary and keeps its wait: issued just before the probe it stands for.
Probe canary_before(uv_loop_t* loop, const std::string& what, double& wait_ms) {
  return {what + " canary", [loop, &wait_ms](Finished finished) {
            queue_canary(loop, [&wait_ms, finished](double wait, bool cancelled) {
              finished(cancelled ? "cancelled" : "");
              wait_ms = wait;
            });
          }};
}

}  // namespace

SaturationResult run_saturation(uv_loop_t* loop, const SaturationConfig& config) {
  SaturationResult result;
  result.keys.resize(config.jobs);
  // Each callback reports its completion first, so the time read is the callback's, then keeps the answer.
  std::vector<Probe> probes{
      canary_before(loop, "fs", result.fs_wait_ms),
      {"fs", [&](Finished finished) {
         read_file(loop, config.file_path, [&, finished](std::string bytes, std::string error) {
           finished(error);
           result.file_bytes = std::move(bytes);
         });
       }},
      canary_before(loop, "dns", result.dns_wait_ms),
      {"dns", [&](Finished finished) {
         lookup(loop, config.host, [&, finished](std::string address, std::string error) {
           finished(error);
           result.address = std::move(address);
         });
       }},
      {"tcp", [&](Finished finished) {
         http_get(loop, config.http_port, "/", [&, finished](HttpGetResult r) {
           finished(r.error);
           result.http = std::move(r);
         });
       }},
  };
  BehindJobsResult run = run_behind_jobs(loop, "pbkdf2", config.jobs, [&](int i, Finished finished) {
    queue_pbkdf2(loop, config.pbkdf2, [&, i, finished](Key key, std::string error) {
      finished(error);
      result.keys[i] = std::move(key);
    });
  }, probes);
  result.pbkdf2_done_ms = std::move(run.job_done_ms);
  result.fs_ms = run.probe_done_ms[1];
  result.dns_ms = run.probe_done_ms[3];
  result.tcp_ms = run.probe_done_ms[4];
  result.order = std::move(run.order);
  result.errors = std::move(run.errors);
  return result;
}

std::vector<std::string> check_saturation(const SaturationResult& r, const SaturationConfig& config,
                                          const Key& expected_key, const std::string& expected_bytes) {
  std::vector<std::string> problems = r.errors;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  const int expected = config.jobs + 5;  // the jobs, three probes and two canaries
  expect(static_cast<int>(r.order.size()) == expected,
         "expected " + std::to_string(expected) + " completions, saw " + std::to_string(r.order.size()));
  for (int i = 0; i < config.jobs; ++i)
    expect(r.keys[i] == expected_key, "pbkdf2 job " + std::to_string(i) + " derived " + to_hex(r.keys[i]) +
                                          ", expected " + to_hex(expected_key));
  expect(r.file_bytes == expected_bytes, "file read returned " + std::to_string(r.file_bytes.size()) +
                                             " bytes that differ from the file's " +
                                             std::to_string(expected_bytes.size()));
  expect(is_loopback(r.address), "lookup of " + config.host + " gave '" + r.address + "', not loopback");
  expect(r.http.status == 200 && r.http.body == "ok",
         "HTTP GET returned " + std::to_string(r.http.status) + " '" + r.http.body + "'");
  return problems;
}

double pool_efficiency(int jobs, double last_done_ms, double alone_ms, int threads, int cores) {
  if (last_done_ms <= 0 || alone_ms <= 0) return 0;
  double throughput = jobs / last_done_ms;
  double ceiling = std::min({threads, cores, jobs}) / alone_ms;
  return throughput / ceiling;
}

}  // namespace stallbench
