#include "http_request_parser.h"

#include <utility>

namespace stallbench {

HttpRequestParser::HttpRequestParser(OnRequest on_request) : on_request_(std::move(on_request)) {
  http_parser_init(&parser_, HTTP_REQUEST);
  parser_.data = this;
}

const http_parser_settings& HttpRequestParser::settings() {
  static const http_parser_settings made = [] {
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_message_begin = [](http_parser* p) {
      static_cast<HttpRequestParser*>(p->data)->url_.clear();
      return 0;
    };
    s.on_url = [](http_parser* p, const char* at, size_t len) {
      // http-parser bounds the request line and headers (HTTP_MAX_HEADER_SIZE, 80 KB).
      static_cast<HttpRequestParser*>(p->data)->url_.append(at, len);
      return 0;
    };
    s.on_message_complete = [](http_parser* p) {
      auto* self = static_cast<HttpRequestParser*>(p->data);
      self->on_request_(http_method_str(static_cast<http_method>(p->method)), self->url_,
                        http_should_keep_alive(p) != 0);
      return 0;
    };
    return s;
  }();
  return made;
}

bool HttpRequestParser::feed(const char* data, std::size_t size) {
  if (HTTP_PARSER_ERRNO(&parser_) != HPE_OK) return false;
  std::size_t parsed = http_parser_execute(&parser_, &settings(), data, size);
  return parsed == size && HTTP_PARSER_ERRNO(&parser_) == HPE_OK;
}

}  // namespace stallbench
