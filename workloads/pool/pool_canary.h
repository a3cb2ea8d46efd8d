// The pool canary in C++: a no-op queued on libuv's pool immediately before a request, so that
// its wait for a thread is the request's. It is what the Node-API canary (workloads/probe) does
// inside a Node program, done here with uv_queue_work, so that C++ and Node rows measure the wait
// the same way, by construction.
//
// Why the canary goes first: libuv's queue is FIFO, and a freed thread takes the canary, runs the
// no-op (microseconds) and takes the request next, so the request starts as the canary ends. A
// canary queued after the request would start only when a second thread frees up, which behind
// long jobs is a whole job later. And it measures the main queue only: a getaddrinfo behind it
// (slow I/O) may wait again in libuv's queue of its own, which a plain work item never enters.
#pragma once

#include <uv.h>

#include <functional>

namespace stallbench {

// Runs on the loop thread once the canary has run: `wait_ms` from its submission to the moment
// a pool thread started it; `cancelled` when uv_cancel took it off the queue first (no wait then).
using CanaryDone = std::function<void(double wait_ms, bool cancelled)>;

// Queues the canary; returns its request, which uv_cancel can take off the queue until a thread
// picks it up and which stays valid until `done` has run.
uv_req_t* queue_canary(uv_loop_t* loop, CanaryDone done);

}  // namespace stallbench
