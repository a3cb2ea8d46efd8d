// The floor under every parser: copying the payload once, in the same process and run. No parser
// reads its input faster than memory can be streamed, so MB/s are read against this line.
#pragma once

#include <vector>

#include "json_text.h"

namespace stallbench {

// Copies `json` into `target` (resized and faulted in first, so page faults are not timed) and
// returns the fastest of `tries` copies, in ms.
double memcpy_floor_ms(const JsonText& json, std::vector<char>& target, int tries = 3);

}  // namespace stallbench
