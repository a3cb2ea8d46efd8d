// The /health probe: a client on its own thread and its own loop that sends GET /health to a
// server on the loop under test every `interval` ms, whatever happened to the previous request,
// and records every response's latency. Like Node's fetch (undici) it keeps connections alive
// and reuses an idle one; while the server is stalled, requests pile up on new connections (up
// to a cap, then they queue for a free one and their wait counts in their latency). Being on
// another thread, the probe keeps its schedule while the loop under test is blocked, so the
// latencies say what a client of a stalled service would have seen.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../common/summary.h"

namespace stallbench {

struct HealthSample {
  double sent_ms;     // since the epoch given to the probe
  double latency_ms;  // until the whole response was read
};

struct ProbeRecord {
  std::vector<HealthSample> samples;  // in the order the responses arrived
  int failures = 0;                   // requests that got no 200 "ok"
  std::string first_failure;
  Summary latency() const;
};

class HealthProbe {
 public:
  // Starts the probe thread at once; the first request goes out immediately. Throws UvError.
  HealthProbe(std::uint16_t port, double interval_ms, std::uint64_t epoch_ns, const std::string& path = "/health");
  ~HealthProbe();  // stops, abandons requests in flight, joins the thread
  HealthProbe(const HealthProbe&) = delete;
  HealthProbe& operator=(const HealthProbe&) = delete;

  // Stops sending. `drained` runs on the probe's thread once every request in flight has been
  // answered or failed; the loop under test must keep running until then.
  void stop(std::function<void()> drained);
  // After `drained`: joins the thread and hands over what was recorded.
  ProbeRecord finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace stallbench
