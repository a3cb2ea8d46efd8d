// The /health server's request parsing, apart from its sockets: bytes in, in whatever pieces the
// network delivers them, complete requests out. http-parser (Node's parser before llhttp) does the
// parsing; this keeps the URL of the request under way. The fuzz target (tests/fuzz) drives this
// class, so it exercises exactly what the server runs on every read.
#pragma once

#include <http_parser.h>

#include <cstddef>
#include <functional>
#include <string>

namespace stallbench {

class HttpRequestParser {
 public:
  // Called for every complete request, in order; may be called several times per feed().
  using OnRequest = std::function<void(const char* method, const std::string& url, bool keep_alive)>;

  explicit HttpRequestParser(OnRequest on_request);
  HttpRequestParser(const HttpRequestParser&) = delete;
  HttpRequestParser& operator=(const HttpRequestParser&) = delete;

  // The next bytes of the connection. False when they are not HTTP/1.x: the caller answers 400 and
  // closes; feeding more after that is refused too.
  bool feed(const char* data, std::size_t size);

 private:
  static const http_parser_settings& settings();

  http_parser parser_;
  std::string url_;
  OnRequest on_request_;
};

}  // namespace stallbench
