// Where this build put the pool canary addon (canary_addon.cc), for the benches whose Node cells
// load it (pool, pool-sweep). The addon is optional: it needs a pinned Node line's Node-API headers,
// and sanitizer builds leave it out, so its path may name nothing.
#pragma once

#include <string>

namespace stallbench {

// <build>/probe/stallbench_canary.node, or "" when this build has no addon.
std::string canary_addon_path();

}  // namespace stallbench
