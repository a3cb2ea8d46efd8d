// Starts every pool thread before anything is timed: libuv creates its threads on the first
// submission, and the first timed job must not pay for that.
#pragma once

#include <uv.h>

namespace stallbench {

// Runs one empty work item per thread and the loop until they are done (stopping it at the last,
// so other handles on the loop, a server, do not keep it running).
void warm_pool(uv_loop_t* loop, int threads);

}  // namespace stallbench
