// An HTTP/1.1 GET over loopback TCP on a given loop, as Node's fetch would issue it: a new
// connection, the request, the whole response parsed with http-parser, then close. TCP is
// "OS async" in libuv (epoll), so unlike file and DNS work it never touches the thread pool.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>

namespace stallbench {

struct HttpGetResult {
  int status = 0;
  std::string body;
  std::string error;  // empty on success
};

// `done` runs on the loop thread once the response is complete or the exchange failed.
void http_get(uv_loop_t* loop, std::uint16_t port, const std::string& path,
              std::function<void(HttpGetResult)> done);

// One GET of "/" to the server on `loop` with nothing else running: what the request itself costs,
// in milliseconds. Throws std::runtime_error unless it answered 200.
double time_http_get_alone(uv_loop_t* loop, std::uint16_t port);

}  // namespace stallbench
