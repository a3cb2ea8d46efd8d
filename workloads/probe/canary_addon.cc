// The pool canary: a Node-API addon whose one job is a no-op on libuv's thread pool that reads
// the clock where it starts. napi_create_async_work queues its execute callback with
// uv_queue_work, in the same queue as fs, crypto, zlib and dns.lookup work, so the time between
// submitting a canary and its execute callback starting on a pool thread is exactly how long any
// request submitted at that instant waited for a thread. The completion, run on the main thread,
// says how long the loop then took to deliver it. Node does not expose either number
// (nodejs/node#22957, libuv#1144); Node-API does not need a patched Node, and its ABI is stable,
// so one build loads in every Node line from 18 on.
//
// Completed canaries go to a bounded ring per Node environment (a worker loading the addon gets its
// own) and are taken in batches by drain(): no JavaScript runs per canary, so the probe costs one
// tiny pool job and one loop callback per sample. Times are milliseconds of CLOCK_MONOTONIC, the
// clock libuv (uv_hrtime), process.hrtime and Python's time.monotonic read, so samples line up with
// anything else on the machine.
//
// JavaScript API:
//   submit() -> id            queue one canary (null when `limit` canaries are already out)
//   drain() -> Float64Array   completed canaries since the last drain, `fields` numbers each: [id,
//                             submitted, started, completed, idle, ahead], in completion order; idle and
//                             ahead are the pool's idle threads and the program's jobs it queued behind
//                             when it was submitted (lookups held back by libuv not among them: competing
//                             in pool_queue.h), other canaries left out
//                             (programs_view in pool_occupancy.h; NaN where libuv's pool is unreadable):
//                             with more idle threads than jobs ahead, a thread was free for it, and
//                             whatever it waited was for a core (pool_occupancy.h)
//   status() -> {outstanding, oldest_submitted, lost, skipped}
//   pending() -> Float64Array  when each canary still out was submitted, oldest first
//   now() -> ms               the clock the samples are on
//   setLimit(n)               how many canaries may be out at once (default 2000)
//   fields                    the names of drain()'s numbers per canary, in order
// and the pool's occupancy and thread CPU time (pool_addon_api.cc).
#include <time.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "workloads/probe/napi_values.h"
#include "workloads/probe/pool_addon_api.h"
#include "workloads/probe/pool_occupancy.h"

using stallbench::napi_checked;
using stallbench::js_number;

namespace {

double now_ms() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Sample {
  double id, submitted, started, completed, idle, ahead;
};
constexpr const char* kFieldNames[] = {"id", "submitted", "started", "completed", "idle", "ahead"};
constexpr std::size_t kFields = sizeof kFieldNames / sizeof kFieldNames[0];

// A ring of completed samples: when drain() is not called for long, the oldest are overwritten
// and counted, so memory stays bounded whatever the program does.
constexpr std::size_t kRing = 1 << 16;

struct State {
  std::vector<Sample> ring = std::vector<Sample>(kRing);
  std::size_t head = 0, count = 0;
  double lost = 0, skipped = 0, next_id = 0;
  std::deque<std::pair<double, double>> out;  // (id, submitted) of canaries not yet completed, oldest first
  std::size_t limit = 2000;
};

struct Canary {
  napi_async_work work = nullptr;
  State* state = nullptr;
  double id = 0, submitted = 0;
  double idle = NAN, ahead = NAN;  // the pool when it was submitted
  double started = 0;  // written on the pool thread, read on the main thread after uv's queue lock
};

bool check(napi_env env, napi_status status, const char* what) { return napi_checked(env, status, what); }

State* state_of(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return static_cast<State*>(data);
}

void execute(napi_env, void* data) {
  stallbench::canaries_running.fetch_add(1, std::memory_order_relaxed);
  static_cast<Canary*>(data)->started = now_ms();
  stallbench::canaries_queued.fetch_sub(1, std::memory_order_relaxed);
  stallbench::pool_started.store(true, std::memory_order_release);
  stallbench::canaries_running.fetch_sub(1, std::memory_order_relaxed);
}

void complete(napi_env env, napi_status status, void* data) {
  auto* canary = static_cast<Canary*>(data);
  State* s = canary->state;
  double completed = now_ms();
  for (auto it = s->out.begin(); it != s->out.end(); ++it)
    if (it->first == canary->id) {
      s->out.erase(it);
      break;
    }
  if (status == napi_ok) {
    if (s->count == kRing) {
      s->lost += 1;
      s->count -= 1;
    }
    s->ring[(s->head + s->count) % kRing] = {canary->id, canary->submitted, canary->started, completed,
                                              canary->idle, canary->ahead};
    s->count += 1;
  }
  napi_delete_async_work(env, canary->work);
  delete canary;
}

napi_value submit(napi_env env, napi_callback_info) {
  State* s = state_of(env);
  napi_value result;
  if (s->out.size() >= s->limit) {
    s->skipped += 1;
    napi_get_null(env, &result);
    return result;
  }
  auto* canary = new Canary{.state = s, .id = s->next_id++};
  napi_value name;
  if (!check(env, napi_create_string_utf8(env, "stallbench.canary", NAPI_AUTO_LENGTH, &name), "name") ||
      !check(env, napi_create_async_work(env, nullptr, name, execute, complete, canary, &canary->work),
             "napi_create_async_work failed")) {
    delete canary;
    return nullptr;
  }
  stallbench::PoolSnapshot pool;
  if (stallbench::pool_snapshot(pool)) {
    stallbench::PoolSnapshot programs = stallbench::programs_view(pool);
    canary->idle = programs.idle;
    canary->ahead = stallbench::competing(programs);
  }
  stallbench::canaries_queued.fetch_add(1, std::memory_order_relaxed);
  canary->submitted = now_ms();
  if (!check(env, napi_queue_async_work(env, canary->work), "napi_queue_async_work failed")) {
    stallbench::canaries_queued.fetch_sub(1, std::memory_order_relaxed);
    napi_delete_async_work(env, canary->work);
    delete canary;
    return nullptr;
  }
  s->out.emplace_back(canary->id, canary->submitted);
  napi_create_double(env, canary->id, &result);
  return result;
}

napi_value drain(napi_env env, napi_callback_info) {
  State* s = state_of(env);
  napi_value buffer, array;
  void* bytes = nullptr;
  std::size_t n = s->count * kFields;
  if (!check(env, napi_create_arraybuffer(env, n * sizeof(double), &bytes, &buffer), "out of memory")) return nullptr;
  auto* values = static_cast<double*>(bytes);
  for (std::size_t i = 0; i < s->count; ++i) {
    const Sample& x = s->ring[(s->head + i) % kRing];
    const double fields[kFields] = {x.id, x.submitted, x.started, x.completed, x.idle, x.ahead};
    for (std::size_t f = 0; f < kFields; ++f) values[kFields * i + f] = fields[f];
  }
  s->head = (s->head + s->count) % kRing;
  s->count = 0;
  if (!check(env, napi_create_typedarray(env, napi_float64_array, n, buffer, 0, &array), "typed array")) return nullptr;
  return array;
}

napi_value status(napi_env env, napi_callback_info) {
  State* s = state_of(env);
  napi_value out;
  napi_create_object(env, &out);
  napi_set_named_property(env, out, "outstanding", js_number(env, static_cast<double>(s->out.size())));
  napi_value oldest;
  if (s->out.empty()) napi_get_null(env, &oldest);
  else oldest = js_number(env, s->out.front().second);
  napi_set_named_property(env, out, "oldest_submitted", oldest);
  napi_set_named_property(env, out, "lost", js_number(env, s->lost));
  napi_set_named_property(env, out, "skipped", js_number(env, s->skipped));
  return out;
}

napi_value pending(napi_env env, napi_callback_info) {
  State* s = state_of(env);
  napi_value buffer, array;
  void* bytes = nullptr;
  if (!check(env, napi_create_arraybuffer(env, s->out.size() * sizeof(double), &bytes, &buffer), "out of memory"))
    return nullptr;
  auto* values = static_cast<double*>(bytes);
  for (const auto& [id, submitted] : s->out) *values++ = submitted;
  if (!check(env, napi_create_typedarray(env, napi_float64_array, s->out.size(), buffer, 0, &array), "typed array"))
    return nullptr;
  return array;
}

napi_value now(napi_env env, napi_callback_info) { return js_number(env, now_ms()); }

napi_value set_limit(napi_env env, napi_callback_info info) {
  double limit = 0;
  if (!stallbench::number_argument(env, info, 1, 1e6, "setLimit(n): n must be a number from 1 to 1000000", limit))
    return nullptr;
  state_of(env)->limit = static_cast<std::size_t>(limit);
  return nullptr;
}

napi_value field_names(napi_env env) {
  napi_value names, name;
  napi_create_array_with_length(env, kFields, &names);
  for (std::size_t i = 0; i < kFields; ++i) {
    napi_create_string_utf8(env, kFieldNames[i], NAPI_AUTO_LENGTH, &name);
    napi_set_element(env, names, static_cast<uint32_t>(i), name);
  }
  return names;
}

void free_state(napi_env, void* data, void*) { delete static_cast<State*>(data); }

}  // namespace

NAPI_MODULE_INIT() {
  if (!check(env, napi_set_instance_data(env, new State, free_state, nullptr), "napi_set_instance_data failed"))
    return nullptr;
  const napi_property_descriptor api[] = {
      {"submit", nullptr, submit, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"drain", nullptr, drain, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"status", nullptr, status, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"pending", nullptr, pending, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"now", nullptr, now, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"setLimit", nullptr, set_limit, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"fields", nullptr, nullptr, nullptr, nullptr, field_names(env), napi_enumerable, nullptr},
  };
  if (!check(env, napi_define_properties(env, exports, sizeof api / sizeof api[0], api), "napi_define_properties") ||
      !stallbench::define_pool_api(env, exports))
    return nullptr;
  return exports;
}
