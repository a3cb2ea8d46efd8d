// libuv's monotonic clock in milliseconds: the clock every completion time is read from, as Node's
// own timers and performance.now() read it.
#pragma once

#include <uv.h>

#include <cstdint>

namespace stallbench {

inline double hrtime_ms() { return static_cast<double>(uv_hrtime()) / 1e6; }

// Milliseconds elapsed on the same clock since `start_ns` (a uv_hrtime reading).
inline double ms_since(std::uint64_t start_ns) { return static_cast<double>(uv_hrtime() - start_ns) / 1e6; }

}  // namespace stallbench
