#include "http_server.h"

#include "../common/uv_check.h"
#include "http_request_parser.h"

namespace stallbench {

HttpResponse health_handler(const std::string&, const std::string& url) {
  if (url == "/" || url == "/health") return {200, "ok"};
  return {404, "not found"};
}

static const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    default: return "Status";
  }
}

struct HttpServer::Connection {
  explicit Connection(HttpServer* owner)
      : server(owner), parser([this](const char* method, const std::string& url, bool keep_alive) {
          respond(server->handler_(method, url), keep_alive);
        }) {}

  uv_tcp_t tcp{};
  HttpServer* server;
  HttpRequestParser parser;
  bool closing = false;

  void respond(const HttpResponse& r, bool keep_alive) {
    if (closing) return;
    ++server->requests_served_;
    auto* text = new std::string("HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
                                 "\r\nContent-Type: text/plain\r\nContent-Length: " +
                                 std::to_string(r.body.size()) +
                                 (keep_alive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n") + r.body);
    auto* write = new uv_write_t;
    write->data = text;
    uv_buf_t buf = uv_buf_init(text->data(), static_cast<unsigned>(text->size()));
    int rc = uv_write(write, reinterpret_cast<uv_stream_t*>(&tcp), &buf, 1, [](uv_write_t* w, int) {
      delete static_cast<std::string*>(w->data);
      delete w;
    });
    if (rc < 0) {
      delete text;
      delete write;
      return close();
    }
    if (!keep_alive) close();
  }

  void close() {
    if (closing) return;
    closing = true;
    uv_close(reinterpret_cast<uv_handle_t*>(&tcp), [](uv_handle_t* h) {
      auto* c = static_cast<Connection*>(h->data);
      c->server->forget(c);
    });
  }
};

HttpServer::HttpServer(uv_loop_t* loop, HttpHandler handler, std::uint16_t port)
    : loop_(loop), handler_(std::move(handler)), listener_(new uv_tcp_t) {
  uv_check(uv_tcp_init(loop_, listener_), "uv_tcp_init(server)");
  listener_->data = this;
  ++open_handles_;
  try {
    sockaddr_in addr{};
    uv_check(uv_ip4_addr("127.0.0.1", port, &addr), "uv_ip4_addr");
    uv_check(uv_tcp_bind(listener_, reinterpret_cast<const sockaddr*>(&addr), 0), "bind 127.0.0.1");
    uv_check(uv_listen(reinterpret_cast<uv_stream_t*>(listener_), 128, on_connection), "listen");
    sockaddr_storage bound{};
    int len = sizeof bound;
    uv_check(uv_tcp_getsockname(listener_, reinterpret_cast<sockaddr*>(&bound), &len), "getsockname");
    port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  } catch (...) {
    close_and_wait();
    throw;
  }
}

HttpServer::~HttpServer() { close_and_wait(); }

void HttpServer::close_and_wait() {
  close();
  while (open_handles_ > 0) uv_run(loop_, UV_RUN_ONCE);
}

void HttpServer::close() {
  if (closed_) return;
  closed_ = true;
  uv_close(reinterpret_cast<uv_handle_t*>(listener_), [](uv_handle_t* h) {
    auto* self = static_cast<HttpServer*>(h->data);
    delete reinterpret_cast<uv_tcp_t*>(h);
    --self->open_handles_;
  });
  for (auto* c : connections_) c->close();
}

void HttpServer::forget(Connection* c) {
  connections_.erase(c);
  delete c;
  --open_handles_;
}

void HttpServer::on_connection(uv_stream_t* listener, int status) {
  auto* self = static_cast<HttpServer*>(listener->data);
  if (status < 0 || self->closed_) return;
  auto* c = new Connection(self);
  if (uv_tcp_init(self->loop_, &c->tcp) < 0) {
    delete c;
    return;
  }
  c->tcp.data = c;
  ++self->open_handles_;
  self->connections_.insert(c);
  if (uv_accept(listener, reinterpret_cast<uv_stream_t*>(&c->tcp)) < 0) return c->close();
  uv_read_start(
      reinterpret_cast<uv_stream_t*>(&c->tcp),
      [](uv_handle_t*, size_t suggested, uv_buf_t* buf) {
        *buf = uv_buf_init(new char[suggested], static_cast<unsigned>(suggested));
      },
      [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
        auto* c = static_cast<Connection*>(stream->data);
        if (nread > 0) {
          if (!c->parser.feed(buf->base, static_cast<size_t>(nread))) c->respond({400, "bad request"}, false);
        } else if (nread < 0) {
          c->close();
        }
        delete[] buf->base;
      });
}

}  // namespace stallbench
