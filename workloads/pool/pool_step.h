// One step of pool work that records its own time on the pool thread. libuv does not say when a
// request leaves its queue, so a step reads the clock from inside the work: when a thread picked
// it up and when it finished, beside when the loop submitted it and when the loop ran its
// callback. Steps go through uv_queue_work; libuv 1.44 queues that work exactly as it queues a
// uv_fs request (only getaddrinfo/getnameinfo, "slow I/O", are treated differently), so a file
// step timed this way waits in the same queue, in the same order, as the uv_fs call would.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>

namespace stallbench {

struct StepTiming {
  std::uint64_t submitted_ns = 0;  // loop thread, at submission (uv_hrtime)
  std::uint64_t started_ns = 0;    // pool thread, as the work began; 0 if it never ran
  std::uint64_t finished_ns = 0;   // pool thread, as the work ended
  std::uint64_t completed_ns = 0;  // loop thread, as the callback ran

  double service_ms() const { return started_ns ? static_cast<double>(finished_ns - started_ns) / 1e6 : 0; }
};

// Runs on a pool thread; returns what went wrong, or an empty string.
using StepWork = std::function<std::string()>;
// Runs on the loop thread. `cancelled` when uv_cancel took the step off the queue before it ran.
using StepDone = std::function<void(const StepTiming& timing, std::string error, bool cancelled)>;

// Queues `work` on libuv's pool. Returns the request, which uv_cancel can take off the queue
// until a thread picks it up; it stays valid until `done` has run.
uv_req_t* queue_timed_step(uv_loop_t* loop, StepWork work, StepDone done);

}  // namespace stallbench
