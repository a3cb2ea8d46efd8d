#include "resolver_timing.h"

#include <dlfcn.h>
#include <netdb.h>
#include <uv.h>

#include <mutex>
#include <thread>
#include <unordered_map>

#include "lookup.h"

namespace stallbench {
namespace {

std::mutex registry_mutex;
std::unordered_map<const void*, ResolverCall*>& registry() {
  static std::unordered_map<const void*, ResolverCall*> calls;
  return calls;
}

ResolverCall* registered(const void* key) {
  std::lock_guard lock(registry_mutex);
  auto it = registry().find(key);
  return it == registry().end() ? nullptr : it->second;
}

// Runs `real` timed (and held first) when `key` was registered, plainly otherwise.
template <typename Real>
int timed(const void* key, Real real) {
  ResolverCall* call = registered(key);
  if (call == nullptr) return real();
  call->started_ns = uv_hrtime();
  if (call->hold.count() > 0) std::this_thread::sleep_for(call->hold);
  int rc = real();
  call->finished_ns = uv_hrtime();
  return rc;
}

template <typename Function>
Function next_definition(const char* name) {
  static_assert(sizeof(Function) == sizeof(void*));
  void* found = dlsym(RTLD_NEXT, name);
  if (found == nullptr) abort();  // no C library behind us: nothing sensible to do
  return reinterpret_cast<Function>(found);
}

}  // namespace

void expect_resolver_call(const void* key, ResolverCall* call) {
  std::lock_guard lock(registry_mutex);
  registry()[key] = call;
}

void forget_resolver_call(const void* key) {
  std::lock_guard lock(registry_mutex);
  registry().erase(key);
}

bool resolver_calls_are_timed() {
  static const bool timed_calls = [] {
    require_hosts_file_name("localhost");
    uv_loop_t loop;
    uv_loop_init(&loop);
    uv_getaddrinfo_t req;
    ResolverCall call;
    expect_resolver_call(&req.addrinfo, &call);
    // Without a callback libuv runs the lookup inline, through the same work function the pool runs.
    addrinfo hints{};
    hints.ai_family = AF_INET;
    int rc = uv_getaddrinfo(&loop, &req, nullptr, "localhost", nullptr, &hints);
    forget_resolver_call(&req.addrinfo);
    if (rc == 0) uv_freeaddrinfo(req.addrinfo);
    uv_loop_close(&loop);
    return call.started_ns != 0;
  }();
  return timed_calls;
}

}  // namespace stallbench

// The program's getaddrinfo and getnameinfo (see resolver_timing.h).
extern "C" int getaddrinfo(const char* name, const char* service, const addrinfo* hints, addrinfo** result) {
  using Real = int (*)(const char*, const char*, const addrinfo*, addrinfo**);
  static const Real real = stallbench::next_definition<Real>("getaddrinfo");
  return stallbench::timed(result, [&] { return real(name, service, hints, result); });
}

extern "C" int getnameinfo(const sockaddr* address, socklen_t length, char* host, socklen_t host_length,
                           char* service, socklen_t service_length, int flags) {
  using Real = int (*)(const sockaddr*, socklen_t, char*, socklen_t, char*, socklen_t, int);
  static const Real real = stallbench::next_definition<Real>("getnameinfo");
  return stallbench::timed(host, [&] { return real(address, length, host, host_length, service, service_length, flags); });
}
