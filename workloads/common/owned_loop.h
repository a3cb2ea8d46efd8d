// A uv_loop_t that closes itself: every handle still open at destruction is closed and the loop
// run until the closes complete, so a failed cell cannot leak a loop into the next repetition.
#pragma once

#include <uv.h>

#include "uv_check.h"

namespace stallbench {

class OwnedLoop {
 public:
  OwnedLoop() { uv_check(uv_loop_init(&loop_), "uv_loop_init"); }
  ~OwnedLoop() {
    uv_walk(&loop_, [](uv_handle_t* h, void*) {
      if (!uv_is_closing(h)) uv_close(h, nullptr);
    }, nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
  }
  OwnedLoop(const OwnedLoop&) = delete;
  OwnedLoop& operator=(const OwnedLoop&) = delete;

  uv_loop_t* get() { return &loop_; }

 private:
  uv_loop_t loop_;
};

}  // namespace stallbench
