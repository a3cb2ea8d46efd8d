// The pool-occupancy and thread-CPU functions of the probe's addon (pool_addon_api.cc).
#pragma once

#include "workloads/probe/napi_values.h"

namespace stallbench {

// Adds startPoolSampler, poolPeriod, poolUnreadable and threadCpuMs to `exports`.
bool define_pool_api(napi_env env, napi_value exports);

}  // namespace stallbench
