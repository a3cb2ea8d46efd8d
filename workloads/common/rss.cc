#include "rss.h"

#include <malloc.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace stallbench {

namespace {

// A "Vm...:   1234 kB" line of /proc/self/status, in MB; 0 when absent.
double status_field_mb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kb = 0;
  while (status >> key) {
    if (key == field + ":") {
      status >> kb;
      return kb / 1024.0;
    }
    status.ignore(4096, '\n');
  }
  return 0;
}

}  // namespace

double rss_mb() { return status_field_mb("VmRSS"); }

double peak_rss_mb() { return status_field_mb("VmHWM"); }

bool reset_peak_rss() {
  malloc_trim(0);
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace stallbench
