// nodejs/node#8436 reproduced: a burst of lookups that each take ~100 ms (our delaying DNS
// server, inside the private resolver's namespace) is submitted, and right after it one file
// read. libuv runs at most (threads+1)/2 lookups at once, so the read finds a free thread and
// completes while the lookups drain in waves. The contrast, `blocking-work`, makes the same
// waits as ordinary pool work, which is what every lookup was before libuv capped slow I/O: then
// the read queues behind them all.
#pragma once

#include <uv.h>

#include <chrono>
#include <string>
#include <vector>

namespace stallbench {

class DelayingDnsServer;
class PrivateResolver;

struct SlowDnsConfig {
  int lookups = 8;
  std::chrono::milliseconds delay{100};
  std::string file_path;  // what the read reads (fs.readFile through uv_fs)
};

struct SlowDnsResult {
  std::vector<double> lookup_done_ms;  // each lookup's completion since submission, in submission order
  double read_ms = 0;
  int max_concurrent = 0;              // lookups that ran side by side at most
  std::string file_bytes;
  std::vector<std::string> errors;
};

// Real getaddrinfo through the private resolver to `server`.
SlowDnsResult run_slow_dns_burst(uv_loop_t* loop, const PrivateResolver& resolver, DelayingDnsServer& server,
                                 const SlowDnsConfig& config);

// The same burst with each lookup replaced by pool work that waits `delay`: no DNS at all.
SlowDnsResult run_blocking_work_burst(uv_loop_t* loop, const SlowDnsConfig& config);

}  // namespace stallbench
