#include "health_probe.h"

#include <http_parser.h>

#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "../common/uv_check.h"

namespace stallbench {

namespace {
// More connections than this and requests queue for a free one: bounds the probe's sockets
// during a multi-second stall (the server's listen backlog is 128).
constexpr std::size_t kMaxConnections = 96;
}  // namespace

Summary ProbeRecord::latency() const { return summarize_field(samples, &HealthSample::latency_ms); }

struct HealthProbe::State {
  struct Connection {
    uv_tcp_t tcp;
    uv_connect_t connect;
    uv_write_t write;
    http_parser parser;
    State* probe;
    bool connected = false;
    bool busy = false;
    std::uint64_t sent_ns = 0;
    int status = 0;
    std::string body;
  };

  uv_loop_t loop;
  uv_timer_t tick;
  uv_async_t control;
  sockaddr_in address{};
  std::string request;
  std::uint64_t interval_ms;
  std::uint64_t epoch_ns;
  std::unordered_set<Connection*> connections;
  std::deque<std::uint64_t> queued;  // send times of requests waiting for a connection
  ProbeRecord record;
  bool stopping = false;
  std::mutex mutex;  // guards the fields below, shared with the thread that owns the probe
  bool closed = false;  // `control` is closed: nobody may signal it any more
  std::function<void()> drained;
  bool abandon = false;
  std::thread thread;

  std::size_t outstanding() const {
    std::size_t busy = queued.size();
    for (auto* c : connections) busy += c->busy ? 1 : 0;
    return busy;
  }

  void fail(const std::string& what) {
    if (record.failures++ == 0) record.first_failure = what;
  }

  static http_parser_settings settings() {
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_body = [](http_parser* p, const char* at, size_t len) {
      static_cast<Connection*>(p->data)->body.append(at, len);
      return 0;
    };
    s.on_message_complete = [](http_parser* p) {
      auto* c = static_cast<Connection*>(p->data);
      c->status = static_cast<int>(p->status_code);
      c->probe->answered(c);
      return 0;
    };
    return s;
  }

  void issue(std::uint64_t sent_ns) {
    for (auto* c : connections) {
      if (c->connected && !c->busy) return send(c, sent_ns);
    }
    if (connections.size() >= kMaxConnections) return queued.push_back(sent_ns);
    open(sent_ns);
  }

  void open(std::uint64_t sent_ns) {
    auto* c = new Connection{};
    c->probe = this;
    c->tcp.data = c;
    c->connect.data = c;
    c->busy = true;  // this connection carries the request that made it
    c->sent_ns = sent_ns;
    http_parser_init(&c->parser, HTTP_RESPONSE);
    c->parser.data = c;
    if (int rc = uv_tcp_init(&loop, &c->tcp); rc < 0) {
      delete c;
      return fail(std::string("uv_tcp_init: ") + uv_strerror(rc));
    }
    connections.insert(c);
    int rc = uv_tcp_connect(&c->connect, &c->tcp, reinterpret_cast<const sockaddr*>(&address), [](uv_connect_t* req, int status) {
      auto* c = static_cast<Connection*>(req->data);
      if (status < 0) return c->probe->drop(c, std::string("connect 127.0.0.1: ") + uv_strerror(status));
      c->connected = true;
      c->probe->start_reading(c);
      c->probe->send(c, c->sent_ns);
    });
    if (rc < 0) drop(c, std::string("connect 127.0.0.1: ") + uv_strerror(rc));
  }

  void start_reading(Connection* c) {
    uv_read_start(
        reinterpret_cast<uv_stream_t*>(&c->tcp),
        [](uv_handle_t*, size_t suggested, uv_buf_t* buf) {
          *buf = uv_buf_init(new char[suggested], static_cast<unsigned>(suggested));
        },
        [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
          auto* c = static_cast<Connection*>(stream->data);
          static const http_parser_settings parser_settings = settings();
          if (nread > 0) {
            size_t parsed = http_parser_execute(&c->parser, &parser_settings, buf->base, static_cast<size_t>(nread));
            if (parsed != static_cast<size_t>(nread))
              c->probe->drop(c, std::string("bad response: ") + http_errno_description(HTTP_PARSER_ERRNO(&c->parser)));
          } else if (nread < 0) {
            c->probe->drop(c, nread == UV_EOF ? "server closed the connection" : uv_strerror(static_cast<int>(nread)));
          }
          delete[] buf->base;
        });
  }

  void send(Connection* c, std::uint64_t sent_ns) {
    c->busy = true;
    c->sent_ns = sent_ns;
    c->body.clear();
    c->write.data = c;
    uv_buf_t buf = uv_buf_init(request.data(), static_cast<unsigned>(request.size()));
    int rc = uv_write(&c->write, reinterpret_cast<uv_stream_t*>(&c->tcp), &buf, 1, [](uv_write_t* w, int status) {
      if (status < 0) {
        auto* c = static_cast<Connection*>(w->data);
        c->probe->drop(c, std::string("write: ") + uv_strerror(status));
      }
    });
    if (rc < 0) drop(c, std::string("write: ") + uv_strerror(rc));
  }

  void answered(Connection* c) {
    std::uint64_t now = uv_hrtime();
    if (c->status == 200 && c->body == "ok")
      record.samples.push_back({static_cast<double>(c->sent_ns - epoch_ns) / 1e6, static_cast<double>(now - c->sent_ns) / 1e6});
    else
      fail("GET /health answered " + std::to_string(c->status) + " '" + c->body + "'");
    c->busy = false;
    if (!queued.empty()) {
      std::uint64_t next = queued.front();
      queued.pop_front();
      send(c, next);
    }
    maybe_drained();
  }

  // A connection that failed: its request (if any) is a failure, and it is closed.
  void drop(Connection* c, const std::string& why) {
    if (uv_is_closing(reinterpret_cast<uv_handle_t*>(&c->tcp))) return;
    if (c->busy) fail(why);
    c->busy = false;
    close(c);
    if (!queued.empty()) {  // already sent as far as the schedule goes: it still needs a connection
      std::uint64_t next = queued.front();
      queued.pop_front();
      open(next);
    }
    maybe_drained();
  }

  void close(Connection* c) {
    connections.erase(c);
    uv_close(reinterpret_cast<uv_handle_t*>(&c->tcp), [](uv_handle_t* h) { delete static_cast<Connection*>(h->data); });
  }

  void maybe_drained() {
    if (!stopping || uv_is_closing(reinterpret_cast<uv_handle_t*>(&tick)) || outstanding() > 0) return;
    shut_down();
    std::function<void()> callback;
    {
      std::lock_guard lock(mutex);
      callback = std::move(drained);
    }
    if (callback) callback();
  }

  void shut_down() {
    {
      std::lock_guard lock(mutex);  // after this no other thread touches `control`
      closed = true;
    }
    uv_timer_stop(&tick);
    for (auto* c : std::vector<Connection*>(connections.begin(), connections.end())) close(c);
    queued.clear();
    uv_close(reinterpret_cast<uv_handle_t*>(&tick), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&control), nullptr);
  }

  // Signals the probe's thread, unless it has already shut down.
  void signal(bool abandon_requests, std::function<void()> on_drained) {
    std::lock_guard lock(mutex);
    if (closed) return;
    abandon = abandon_requests;
    drained = std::move(on_drained);
    uv_async_send(&control);
  }

  static void on_control(uv_async_t* async) {
    auto* self = static_cast<State*>(async->data);
    bool abandon;
    {
      std::lock_guard lock(self->mutex);
      if (self->closed) return;
      abandon = self->abandon;
    }
    self->stopping = true;
    uv_timer_stop(&self->tick);
    if (abandon) return self->shut_down();
    self->maybe_drained();
  }
};

HealthProbe::HealthProbe(std::uint16_t port, double interval_ms, std::uint64_t epoch_ns, const std::string& path)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.interval_ms = static_cast<std::uint64_t>(interval_ms);
  s.epoch_ns = epoch_ns;
  s.request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n\r\n";
  uv_check(uv_ip4_addr("127.0.0.1", port, &s.address), "uv_ip4_addr");
  uv_check(uv_loop_init(&s.loop), "uv_loop_init(probe)");
  uv_check(uv_timer_init(&s.loop, &s.tick), "uv_timer_init(probe)");
  uv_check(uv_async_init(&s.loop, &s.control, State::on_control), "uv_async_init(probe)");
  s.tick.data = s.control.data = &s;
  uv_check(uv_timer_start(&s.tick, [](uv_timer_t* t) { static_cast<State*>(t->data)->issue(uv_hrtime()); }, 0,
                          s.interval_ms),
           "uv_timer_start(probe)");
  s.thread = std::thread([&s] {
    uv_run(&s.loop, UV_RUN_DEFAULT);
    uv_loop_close(&s.loop);
  });
}

HealthProbe::~HealthProbe() {
  if (!state_->thread.joinable()) return;
  state_->signal(true, nullptr);
  state_->thread.join();
}

void HealthProbe::stop(std::function<void()> drained) { state_->signal(false, std::move(drained)); }

ProbeRecord HealthProbe::finish() {
  if (state_->thread.joinable()) state_->thread.join();
  return std::move(state_->record);
}

}  // namespace stallbench
