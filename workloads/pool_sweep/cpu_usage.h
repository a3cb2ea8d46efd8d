// CPU time spent, read before and after a window: this process's (getrusage) and the machine's
// (/proc/stat), so a run can say both how busy it kept the cores and how busy everything else was.
#pragma once

#include <sys/resource.h>

#include <fstream>
#include <optional>
#include <string>

namespace stallbench {

inline double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct MachineTicks {
  double busy = 0, total = 0;
};

// The first line of /proc/stat: every CPU's ticks, busy being all but idle and iowait.
inline std::optional<MachineTicks> machine_ticks() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  double user, nice, system, idle, iowait, irq, softirq, steal;
  if (!(in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu")
    return std::nullopt;
  double total = user + nice + system + idle + iowait + irq + softirq + steal;
  return MachineTicks{total - idle - iowait, total};
}

}  // namespace stallbench
