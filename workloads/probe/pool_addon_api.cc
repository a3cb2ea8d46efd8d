// The addon's functions beside the canary (canary_addon.cc): the pool's occupancy read from libuv
// (pool_occupancy.h), and the calling thread's CPU time, which the preload reads on the main thread
// where the Node line has no process.threadCpuUsage (before 22.x): the loop's own work, told apart
// from the time its thread waited for a core.
//
// JavaScript API:
//   startPoolSampler(rate)  sample the pool's occupancy `rate` times a second, at random instants
//   poolPeriod() -> {samples, threads, busy, queued, waiting, queued_max} | null
//                           means over the samples since the last call (busy threads; the program's
//                           jobs waiting; of them, waiting for a thread); null while unreadable
//   poolUnreadable() -> ''  or why libuv's pool cannot be read in this Node
//   threadCpuMs() -> ms     CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID)
#include <time.h>

#include "workloads/probe/napi_values.h"
#include "workloads/probe/pool_addon_api.h"
#include "workloads/probe/pool_occupancy.h"

namespace stallbench {
namespace {

napi_value start_pool_sampler_js(napi_env env, napi_callback_info info) {
  double rate = 0;
  if (!number_argument(env, info, 1, 10000, "startPoolSampler(rate): rate must be 1-10000 a second", rate))
    return nullptr;
  start_pool_sampler(rate);
  return nullptr;
}

napi_value pool_period_js(napi_env env, napi_callback_info) {
  PoolPeriod p = take_pool_period();
  if (p.samples == 0) return js_null(env);
  napi_value out;
  napi_create_object(env, &out);
  const std::pair<const char*, double> fields[] = {
      {"samples", p.samples}, {"threads", p.threads}, {"busy", p.busy_sum / p.samples},
      {"queued", p.queued_sum / p.samples}, {"waiting", p.waiting_sum / p.samples}, {"queued_max", p.queued_max}};
  for (const auto& [name, value] : fields) napi_set_named_property(env, out, name, js_number(env, value));
  return out;
}

napi_value pool_unreadable_js(napi_env env, napi_callback_info) {
  std::string why = pool_unreadable_why();
  napi_value out;
  napi_create_string_utf8(env, why.c_str(), why.size(), &out);
  return out;
}

napi_value thread_cpu_ms_js(napi_env env, napi_callback_info) {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return js_number(env, static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6);
}

}  // namespace

bool define_pool_api(napi_env env, napi_value exports) {
  const std::pair<const char*, napi_callback> api[] = {
      {"startPoolSampler", start_pool_sampler_js}, {"poolPeriod", pool_period_js},
      {"poolUnreadable", pool_unreadable_js}, {"threadCpuMs", thread_cpu_ms_js}};
  for (const auto& [name, f] : api) {
    if (!napi_checked(env, napi_set_named_property(env, exports, name, js_function(env, name, f)), name)) return false;
  }
  return true;
}

}  // namespace stallbench
