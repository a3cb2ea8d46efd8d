// Every libuv call's result is checked: a benchmark that silently lost a request would report a
// latency for work that never happened.
#pragma once

#include <uv.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace stallbench {

struct UvError : std::runtime_error {
  UvError(const std::string& what, int code)
      : std::runtime_error(what + ": " + uv_strerror(code)), code(code) {}
  int code;
};

inline void uv_check(int rc, const char* what) {
  if (rc < 0) throw UvError(what, rc);
}

// Runs the loop until no handle or request is active; throws if a callback left it unfinished.
inline void run_loop(uv_loop_t* loop) { uv_check(uv_run(loop, UV_RUN_DEFAULT), "uv_run"); }

// Runs the loop for `ms` of wall time with only a timer to end it: the loop sleeps in poll, as it
// does between events. (Handles the caller left referenced would keep it running past that.)
inline void idle_loop_for(uv_loop_t* loop, double ms) {
  uv_timer_t end;
  uv_check(uv_timer_init(loop, &end), "uv_timer_init");
  uv_check(uv_timer_start(&end, [](uv_timer_t*) {}, static_cast<std::uint64_t>(ms), 0), "uv_timer_start");
  run_loop(loop);
  uv_close(reinterpret_cast<uv_handle_t*>(&end), nullptr);
  run_loop(loop);
}

}  // namespace stallbench
