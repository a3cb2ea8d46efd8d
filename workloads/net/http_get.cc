#include "http_get.h"

#include <http_parser.h>

#include <stdexcept>

#include "../common/uv_clock.h"

namespace stallbench {
namespace {

struct HttpGet {
  uv_tcp_t tcp;
  uv_connect_t connect;
  uv_write_t write;
  http_parser parser;
  std::string request;
  HttpGetResult result;
  bool complete = false;
  std::function<void(HttpGetResult)> done;

  static http_parser_settings settings() {
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_body = [](http_parser* p, const char* at, size_t len) {
      static_cast<HttpGet*>(p->data)->result.body.append(at, len);
      return 0;
    };
    s.on_message_complete = [](http_parser* p) {
      auto* g = static_cast<HttpGet*>(p->data);
      g->result.status = static_cast<int>(p->status_code);
      g->complete = true;
      return 0;
    };
    return s;
  }

  void fail(const std::string& what, int code) {
    if (result.error.empty()) result.error = what + ": " + uv_strerror(code);
    finish();
  }

  // Closing the socket is the last step; `done` runs from the close callback so the caller may
  // stop the loop or destroy the server without racing a half-closed handle.
  void finish() {
    if (uv_is_closing(reinterpret_cast<uv_handle_t*>(&tcp))) return;
    uv_close(reinterpret_cast<uv_handle_t*>(&tcp), [](uv_handle_t* h) {
      auto* g = static_cast<HttpGet*>(h->data);
      if (!g->complete && g->result.error.empty()) g->result.error = "connection closed before the response was complete";
      g->done(std::move(g->result));
      delete g;
    });
  }

  static void on_connect(uv_connect_t* req, int status) {
    auto* g = static_cast<HttpGet*>(req->data);
    if (status < 0) return g->fail("connect 127.0.0.1", status);
    uv_buf_t buf = uv_buf_init(g->request.data(), static_cast<unsigned>(g->request.size()));
    g->write.data = g;
    int rc = uv_write(&g->write, reinterpret_cast<uv_stream_t*>(&g->tcp), &buf, 1, [](uv_write_t* w, int st) {
      if (st < 0) static_cast<HttpGet*>(w->data)->fail("write", st);
    });
    if (rc < 0) return g->fail("write", rc);
    rc = uv_read_start(reinterpret_cast<uv_stream_t*>(&g->tcp), on_alloc, on_read);
    if (rc < 0) g->fail("read", rc);
  }

  static void on_alloc(uv_handle_t*, size_t suggested, uv_buf_t* buf) {
    *buf = uv_buf_init(new char[suggested], static_cast<unsigned>(suggested));
  }

  static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
    auto* g = static_cast<HttpGet*>(stream->data);
    static const http_parser_settings parser_settings = settings();
    if (nread > 0) {
      size_t parsed = http_parser_execute(&g->parser, &parser_settings, buf->base, static_cast<size_t>(nread));
      if (parsed != static_cast<size_t>(nread) && !g->complete)
        g->result.error = std::string("bad response: ") + http_errno_description(HTTP_PARSER_ERRNO(&g->parser));
      if (g->complete || !g->result.error.empty()) g->finish();
    } else if (nread == UV_EOF) {
      http_parser_execute(&g->parser, &parser_settings, nullptr, 0);  // EOF may end the message
      g->finish();
    } else if (nread < 0) {
      g->fail("read", static_cast<int>(nread));
    }
    delete[] buf->base;
  }
};

}  // namespace

void http_get(uv_loop_t* loop, std::uint16_t port, const std::string& path,
              std::function<void(HttpGetResult)> done) {
  auto* g = new HttpGet{};
  g->done = std::move(done);
  g->request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
               "\r\nConnection: close\r\n\r\n";
  http_parser_init(&g->parser, HTTP_RESPONSE);
  g->parser.data = g;
  g->tcp.data = g;
  g->connect.data = g;
  int rc = uv_tcp_init(loop, &g->tcp);
  if (rc < 0) {
    HttpGetResult failed;
    failed.error = std::string("uv_tcp_init: ") + uv_strerror(rc);
    auto callback = std::move(g->done);
    delete g;
    return callback(std::move(failed));
  }
  sockaddr_in addr{};
  uv_ip4_addr("127.0.0.1", port, &addr);
  rc = uv_tcp_connect(&g->connect, &g->tcp, reinterpret_cast<const sockaddr*>(&addr), HttpGet::on_connect);
  if (rc < 0) g->fail("connect 127.0.0.1", rc);
}

double time_http_get_alone(uv_loop_t* loop, std::uint16_t port) {
  double start = hrtime_ms(), done = 0;
  HttpGetResult result;
  http_get(loop, port, "/", [&](HttpGetResult r) {
    done = hrtime_ms();
    result = std::move(r);
    uv_stop(loop);
  });
  uv_run(loop, UV_RUN_DEFAULT);
  if (!result.error.empty() || result.status != 200) throw std::runtime_error("HTTP GET alone failed: " + result.error);
  return done - start;
}

}  // namespace stallbench
