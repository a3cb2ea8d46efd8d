// One measured window on the loop under test, the way seed 000's probe script measures: a
// service (the /health HttpServer) on the loop, the three stall instruments, and the /health
// probe on its own thread. A quiet lead-in (the seed waits 50 ms so the histogram has a clean
// start), then the work, then a quiet tail so a stall at the very end is still sampled; the
// probe's requests in flight are then drained while the loop runs, so none is lost.
#pragma once

#include <uv.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <vector>

#include "../net/health_probe.h"
#include "../net/http_server.h"
#include "delay_monitor.h"
#include "loop_utilization.h"
#include "stall_meter.h"

namespace stallbench {

struct SessionOptions {
  double resolution_ms = 10;      // the delay monitor's timer (seed: monitorEventLoopDelay resolution 10)
  double probe_interval_ms = 20;  // one GET /health every 20 ms (seed)
  double quiet_ms = 50;           // before and after the work (seed: 50 ms each side)
  double stall_threshold_ms = 1;  // stalls at least this long are listed one by one
  double elu_window_ms = 100;     // eventLoopUtilization is read once per window
};

struct InstrumentRecord {
  std::vector<DelaySample> delays;
  Summary delay;
  std::vector<Stall> stalls;  // over the threshold, in order
  Summary stall;              // every loop iteration
  std::size_t iterations = 0;
  std::vector<EluWindow> elu_windows;
  Summary elu;
  double elu_overall = 0;
};

struct SessionRecord {
  double work_start_ms = 0, work_end_ms = 0;  // since the session began
  InstrumentRecord instruments;
  ProbeRecord health;
  double work_ms() const { return work_end_ms - work_start_ms; }
};

// The work calls `finished` on the loop thread when it has ended, with its exception if it failed.
using Finished = std::function<void(std::exception_ptr)>;
using StartWork = std::function<void(Finished finished)>;

class StallSession {
 public:
  explicit StallSession(uv_loop_t* loop, SessionOptions options = {});
  StallSession(const StallSession&) = delete;
  StallSession& operator=(const StallSession&) = delete;

  std::uint16_t port() const { return server_.port(); }
  std::uint64_t requests_served() const { return server_.requests_served(); }
  const SessionOptions& options() const { return options_; }

  // Runs one window; `start` is called on the loop thread after the lead-in. Rethrows the work's
  // exception once the window is closed.
  SessionRecord run(const StartWork& start);

 private:
  uv_loop_t* loop_;
  SessionOptions options_;
  HttpServer server_;
  DelayMonitor monitor_;
  StallMeter meter_;
  EluSampler elu_;
};

// Runs `start` with nothing else going on and returns the milliseconds until it finished (the
// first-parse measurement: no probe, no instruments). Rethrows the work's exception.
double run_until_finished(uv_loop_t* loop, const StartWork& start);

}  // namespace stallbench
