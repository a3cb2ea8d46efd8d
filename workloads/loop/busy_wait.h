// Synchronous work on the loop thread, as the seeds write it: `while (Date.now() < end) {}`.
// Nothing else runs on the loop meanwhile; that is what it is for.
#pragma once

#include <uv.h>

#include <cstdint>

namespace stallbench::loop {

inline void busy_wait(double ms) {
  const auto end = uv_hrtime() + static_cast<std::uint64_t>(ms * 1e6);
  while (uv_hrtime() < end) {
  }
}

}  // namespace stallbench::loop
