#include "slow_dns_burst.h"

#include <netdb.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>

#include "../common/uv_check.h"
#include "../pool/file_read.h"
#include "delaying_dns_server.h"
#include "private_resolver.h"

namespace stallbench {
namespace {

using LookupFinished = std::function<void(std::string error)>;
using SubmitLookup = std::function<void(int index, LookupFinished finished)>;

// Submits every lookup, then the read, in one synchronous block (as a request handler would),
// and runs the loop until all of them have completed.
SlowDnsResult run_burst(uv_loop_t* loop, const SlowDnsConfig& config, const SubmitLookup& submit_lookup) {
  SlowDnsResult result;
  result.lookup_done_ms.assign(config.lookups, 0.0);
  double start = hrtime_ms();
  for (int i = 0; i < config.lookups; ++i)
    submit_lookup(i, [&, i](std::string error) {
      result.lookup_done_ms[i] = hrtime_ms() - start;
      if (!error.empty()) result.errors.push_back("lookup " + std::to_string(i) + ": " + error);
    });
  read_file(loop, config.file_path, [&](std::string bytes, std::string error) {
    result.read_ms = hrtime_ms() - start;
    result.file_bytes = std::move(bytes);
    if (!error.empty()) result.errors.push_back("read: " + error);
  });
  run_loop(loop);
  return result;
}

struct SlowLookup {
  uv_getaddrinfo_t req;
  LookupFinished finished;
};

}  // namespace

SlowDnsResult run_slow_dns_burst(uv_loop_t* loop, const PrivateResolver&, DelayingDnsServer& server,
                                 const SlowDnsConfig& config) {
  server.reset_counts();
  auto result = run_burst(loop, config, [loop](int index, LookupFinished finished) {
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
    LookupFinished finished;
  };
  std::atomic<int> running{0}, most{0};
  auto result = run_burst(loop, config, [&](int, LookupFinished finished) {
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
