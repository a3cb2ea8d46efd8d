#include "slow_dns_burst.h"

#include <netdb.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>

#include "../common/uv_check.h"
#include "../pool/behind_jobs.h"
#include "../pool/file_read.h"
#include "delaying_dns_server.h"
#include "private_resolver.h"

namespace stallbench {
namespace {

// The lookups are the jobs, the read the probe behind them (behind_jobs.h).
SlowDnsResult run_burst(uv_loop_t* loop, const SlowDnsConfig& config, const SubmitJob& submit_lookup) {
  SlowDnsResult result;
  Probe read{"read", [&](Finished finished) {
    read_file(loop, config.file_path, [&, finished](std::string bytes, std::string error) {
      finished(error);
      result.file_bytes = std::move(bytes);
    });
  }};
  BehindJobsResult run = run_behind_jobs(loop, "lookup", config.lookups, submit_lookup, {read});
  result.lookup_done_ms = std::move(run.job_done_ms);
  result.read_ms = run.probe_done_ms[0];
  result.errors = std::move(run.errors);
  return result;
}

struct SlowLookup {
  uv_getaddrinfo_t req;
  Finished finished;
};

}  // namespace

SlowDnsResult run_slow_dns_burst(uv_loop_t* loop, const PrivateResolver&, DelayingDnsServer& server,
                                 const SlowDnsConfig& config) {
  server.reset_counts();
  auto result = run_burst(loop, config, [loop](int index, Finished finished) {
    // Only names under the private resolver's domain, asked only in its namespace.
    char name[96];
    std::snprintf(name, sizeof name, "q%d.%s", index, PrivateResolver::domain);
    auto op = std::make_unique<SlowLookup>(SlowLookup{{}, std::move(finished)});
    op->req.data = op.get();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;  // dns.lookup's default: A and AAAA queries, side by side
    hints.ai_socktype = SOCK_STREAM;
    uv_check(uv_getaddrinfo(loop, &op->req, [](uv_getaddrinfo_t* req, int status, addrinfo* res) {
      std::unique_ptr<SlowLookup> op(static_cast<SlowLookup*>(req->data));
      std::string error;
      char text[INET6_ADDRSTRLEN] = {};
      if (status < 0) error = std::string("getaddrinfo: ") + uv_strerror(status);
      else if (uv_ip_name(res->ai_addr, text, sizeof text) != 0 || std::string(text) != "127.0.0.1")
        error = std::string("answered '") + text + "', not 127.0.0.1";
      uv_freeaddrinfo(res);
      op->finished(std::move(error));
    }, name, nullptr, &hints), "uv_getaddrinfo(private resolver)");
    op.release();
  });
  result.max_concurrent = server.max_concurrent_names();
  return result;
}

SlowDnsResult run_blocking_work_burst(uv_loop_t* loop, const SlowDnsConfig& config) {
  struct Wait {
    uv_work_t req;
    std::chrono::milliseconds delay;
    std::atomic<int>* running;
    std::atomic<int>* most;
    Finished finished;
  };
  std::atomic<int> running{0}, most{0};
  auto result = run_burst(loop, config, [&](int, Finished finished) {
    auto* wait = new Wait{{}, config.delay, &running, &most, std::move(finished)};
    wait->req.data = wait;
    uv_check(uv_queue_work(loop, &wait->req, [](uv_work_t* req) {
      auto* w = static_cast<Wait*>(req->data);
      int now = ++*w->running;
      int seen = w->most->load();
      while (now > seen && !w->most->compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(w->delay);  // a thread blocked on a resolver's answer
      --*w->running;
    }, [](uv_work_t* req, int status) {
      std::unique_ptr<Wait> w(static_cast<Wait*>(req->data));
      w->finished(status < 0 ? std::string("pool work: ") + uv_strerror(status) : std::string());
    }), "uv_queue_work(blocking lookup)");
  });
  result.max_concurrent = most.load();
  return result;
}

}  // namespace stallbench
