// The calling thread's CPU clock in milliseconds: the time this thread ran, not the time other
// processes held the core (the wall clock counts both on a shared, loaded machine).
#pragma once

#include <ctime>

namespace stallbench {

inline double thread_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace stallbench
