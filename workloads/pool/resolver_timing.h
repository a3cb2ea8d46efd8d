// When getaddrinfo and getnameinfo run on a pool thread, and for how long. libuv runs them as
// "slow I/O" inside its own work functions (uv_getaddrinfo, uv_getnameinfo), so the only place a
// lookup's start can be seen is the C library call itself. resolver_timing.cc defines both
// functions for the whole program: an executable's definitions come first in symbol lookup, so
// libuv's calls land there, and each forwards to the C library's own. A call whose result
// pointer was registered beforehand records when it began and ended; it can also be held for a
// set delay first, which is what a slow DNS server does to the pool thread waiting for it,
// without sending a single packet. Unregistered calls pass straight through.
#pragma once

#include <chrono>
#include <cstdint>

namespace stallbench {

struct ResolverCall {
  std::chrono::nanoseconds hold{0};  // held this long on the pool thread before the real call
  std::uint64_t started_ns = 0;      // uv_hrtime on the pool thread; 0 if the call was not seen
  std::uint64_t finished_ns = 0;
};

// `key` is the pointer the call will receive as its result argument: &req->addrinfo for a
// uv_getaddrinfo_t, req->host for a uv_getnameinfo_t (libuv 1.44 passes exactly these). Register
// before submitting the request; forget in its callback. `call` must outlive the registration.
void expect_resolver_call(const void* key, ResolverCall* call);
void forget_resolver_call(const void* key);

// Whether libuv's calls reach the definitions above (they do unless the program was linked in a
// way that hides them); checked once with a synchronous lookup of "localhost".
bool resolver_calls_are_timed();

}  // namespace stallbench
