#include "canary_addon_path.h"

#include <unistd.h>

#ifndef STALLBENCH_CANARY_ADDON
#error "STALLBENCH_CANARY_ADDON must name <build>/probe/stallbench_canary.node (set by CMake)"
#endif

namespace stallbench {

std::string canary_addon_path() {
  const std::string path = STALLBENCH_CANARY_ADDON;
  return ::access(path.c_str(), R_OK) == 0 ? path : "";
}

}  // namespace stallbench
