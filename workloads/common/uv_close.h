// Closing a heap-allocated libuv handle: the memory may be freed only in the close callback,
// after the loop has let go of it.
#pragma once

#include <uv.h>

namespace stallbench {

template <typename Handle>
void close_and_delete(Handle* handle) {
  uv_close(reinterpret_cast<uv_handle_t*>(handle), [](uv_handle_t* h) { delete reinterpret_cast<Handle*>(h); });
}

}  // namespace stallbench
