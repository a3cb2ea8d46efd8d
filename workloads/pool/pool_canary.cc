#include "pool_canary.h"

#include <string>

#include "pool_step.h"

namespace stallbench {

// A timed step whose work is nothing: its start on a thread is all it measures.
uv_req_t* queue_canary(uv_loop_t* loop, CanaryDone done) {
  return queue_timed_step(loop, [] { return std::string(); },
                          [done = std::move(done)](const StepTiming& t, const std::string&, bool cancelled) {
                            done(cancelled ? 0.0 : static_cast<double>(t.started_ns - t.submitted_ns) / 1e6, cancelled);
                          });
}

}  // namespace stallbench
