// What one StallSession says about its work, read as orders of events on the session's one clock
// (uv_hrtime since its epoch: when each /health request was sent and answered, when the work began
// and ended, where each of the stall meter's spans lies). A busy machine stretches every duration
// but cannot reorder these: a request the blocked loop could not read is answered after the work
// whatever the load, and one answered while the work ran was answered by a loop that was free.
#pragma once

#include <cstddef>

#include "workloads/stall/stall_session.h"

namespace stallbench {

struct RequestsDuringWork {
  std::size_t sent = 0;              // /health requests sent while the work ran
  std::size_t answered_before = 0;   // of those, answered before the work ended
};

inline RequestsDuringWork requests_during_work(const SessionRecord& r) {
  RequestsDuringWork d;
  for (const auto& s : r.health.samples) {
    if (s.sent_ms <= r.work_start_ms || s.sent_ms >= r.work_end_ms) continue;
    ++d.sent;
    if (s.sent_ms + s.latency_ms < r.work_end_ms) ++d.answered_before;
  }
  return d;
}

// The stall meter's spans over its threshold that overlap the work: the loop iterations the work
// kept busy, one per slice when it yields between slices.
inline std::size_t stalls_during_work(const SessionRecord& r) {
  std::size_t n = 0;
  for (const auto& s : r.instruments.stalls)
    if (s.at_ms < r.work_end_ms && s.at_ms + s.ms > r.work_start_ms) ++n;
  return n;
}

}  // namespace stallbench
