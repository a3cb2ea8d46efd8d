// A whole-file read as Node's fs.readFile does it: open, fstat, read, close, each a uv_fs request
// that runs on libuv's pool (libuv 1.44 has no io_uring), so a busy pool delays every step.
#pragma once

#include <uv.h>

#include <functional>
#include <string>

namespace stallbench {

// `done` runs on the loop thread with the file's bytes, or with an error text naming the step.
using FileReadDone = std::function<void(std::string bytes, std::string error)>;
void read_file(uv_loop_t* loop, std::string path, FileReadDone done);

}  // namespace stallbench
