// Facts about the machine a result depends on.
#pragma once

#include <sched.h>

#include <thread>

namespace stallbench {

// CPUs this process may run on (the affinity mask, which containers and taskset narrow), not the
// CPUs the machine has: it is the ceiling on how many pool threads can run at once.
inline int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}

}  // namespace stallbench
