// A small HTTP/1.1 server on a given loop, bound to 127.0.0.1 only. It stands for the service
// whose responsiveness a stall hurts: it answers from the loop thread, so every request waits
// for whatever else the loop is doing. Requests are parsed with http-parser (Node's parser
// before llhttp); keep-alive is honoured.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>

namespace stallbench {

struct HttpResponse {
  int status = 200;
  std::string body;
};

// Called on the loop thread for every complete request.
using HttpHandler = std::function<HttpResponse(const std::string& method, const std::string& url)>;

// "/" and "/health" answer 200 "ok"; anything else 404.
HttpResponse health_handler(const std::string& method, const std::string& url);

class HttpServer {
 public:
  // Binds 127.0.0.1 on an ephemeral port (or `port`) and listens; throws UvError on failure.
  explicit HttpServer(uv_loop_t* loop, HttpHandler handler = health_handler, std::uint16_t port = 0);
  ~HttpServer();  // closes everything; must not run inside a callback of the same loop
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::uint64_t requests_served() const { return requests_served_; }

  // Stops listening and closes open connections; handles finish closing on the next loop turn.
  void close();

 private:
  struct Connection;
  static void on_connection(uv_stream_t* listener, int status);
  void forget(Connection* c);
  void close_and_wait();

  uv_loop_t* loop_;
  HttpHandler handler_;
  uv_tcp_t* listener_;
  std::uint16_t port_ = 0;
  std::uint64_t requests_served_ = 0;
  std::unordered_set<Connection*> connections_;
  int open_handles_ = 0;
  bool closed_ = false;
};

}  // namespace stallbench
