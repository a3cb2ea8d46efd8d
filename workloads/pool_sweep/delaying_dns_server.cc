#include "delaying_dns_server.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

#include "../common/uv_check.h"
#include "private_resolver.h"

namespace stallbench {
namespace {

constexpr std::uint16_t type_a = 1, class_in = 1;
constexpr std::uint16_t rcode_refused = 5;

std::uint16_t read16(const char* p) {
  return static_cast<std::uint16_t>((static_cast<unsigned char>(p[0]) << 8) | static_cast<unsigned char>(p[1]));
}
void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xff);
}

struct Question {
  std::string name;        // lower-case, dotted
  std::size_t end = 0;     // offset just past QTYPE and QCLASS
  std::uint16_t type = 0;
};

// The first question of a query; false when the message is not one we can parse.
bool parse_question(const char* data, std::size_t length, Question& q) {
  if (length < 12 || read16(data + 4) != 1) return false;
  std::size_t at = 12;
  while (at < length && data[at] != 0) {
    std::size_t label = static_cast<unsigned char>(data[at]);
    if (label > 63 || at + 1 + label >= length) return false;  // no compression in questions
    if (!q.name.empty()) q.name += '.';
    for (std::size_t i = 0; i < label; ++i) q.name += static_cast<char>(std::tolower(static_cast<unsigned char>(data[at + 1 + i])));
    at += 1 + label;
  }
  if (at + 5 > length) return false;
  q.type = read16(data + at + 1);
  q.end = at + 5;
  return true;
}

bool in_domain(const std::string& name) {
  std::string suffix = std::string(".") + PrivateResolver::domain;
  return name == PrivateResolver::domain ||
         (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

std::string reply_to(const char* query, const Question& q, bool answer_it) {
  std::string out(query, 2);  // the query's id
  std::uint16_t rd = read16(query + 2) & 0x0100;
  put16(out, static_cast<std::uint16_t>(0x8000 | 0x0400 | rd | 0x0080 | (answer_it ? 0 : rcode_refused)));
  bool with_address = answer_it && q.type == type_a;
  for (std::uint16_t count : {1, with_address ? 1 : 0, 0, 0}) put16(out, count);
  out.append(query + 12, q.end - 12);  // the question, as asked
  if (with_address) {
    put16(out, 0xc00c);  // the name: a pointer to the question's
    put16(out, type_a);
    put16(out, class_in);
    out.append(4, '\0');  // TTL 0: nothing may cache it
    put16(out, 4);
    out += std::string("\x7f\x00\x00\x01", 4);
  }
  return out;
}

}  // namespace

struct DelayingDnsServer::Pending {
  uv_timer_t timer;
  DelayingDnsServer* server;
  std::string name, reply;
  sockaddr_storage to;
};

// Closes every handle of the server's loop; a reply still waiting is dropped with its timer.
void DelayingDnsServer::close_everything(uv_loop_t* loop) {
  uv_walk(loop, [](uv_handle_t* h, void*) {
    if (uv_is_closing(h)) return;
    if (h->type == UV_TIMER) return uv_close(h, [](uv_handle_t* t) { delete static_cast<Pending*>(t->data); });
    uv_close(h, nullptr);
  }, nullptr);
}

DelayingDnsServer::DelayingDnsServer(const PrivateResolver&, std::chrono::milliseconds delay) : delay_ms_(delay.count()) {
  uv_check(uv_loop_init(&loop_), "uv_loop_init(dns)");
  uv_check(uv_udp_init(&loop_, &socket_), "uv_udp_init(dns)");
  socket_.data = this;
  sockaddr_in address;
  uv_check(uv_ip4_addr("127.0.0.1", 53, &address), "uv_ip4_addr");
  int rc = uv_udp_bind(&socket_, reinterpret_cast<const sockaddr*>(&address), 0);
  if (rc == 0)
    rc = uv_udp_recv_start(
        &socket_,
        [](uv_handle_t* h, size_t, uv_buf_t* buf) {
          auto* self = static_cast<DelayingDnsServer*>(h->data);
          *buf = uv_buf_init(self->buffer_, sizeof self->buffer_);
        },
        [](uv_udp_t* s, ssize_t n, const uv_buf_t* buf, const sockaddr* from, unsigned) {
          if (n > 0 && from != nullptr) static_cast<DelayingDnsServer*>(s->data)->on_query(buf->base, static_cast<std::size_t>(n), from);
        });
  uv_check(uv_async_init(&loop_, &stop_, [](uv_async_t* a) { close_everything(a->loop); }), "uv_async_init(dns)");
  if (rc != 0) {
    close_everything(&loop_);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    throw UvError("DNS server on 127.0.0.1:53", rc);
  }
  thread_ = std::thread([this] { uv_run(&loop_, UV_RUN_DEFAULT); });
}

DelayingDnsServer::~DelayingDnsServer() {
  uv_async_send(&stop_);  // the server's own thread closes its handles; its loop then ends
  thread_.join();
  uv_loop_close(&loop_);
}

void DelayingDnsServer::on_query(const char* data, std::size_t length, const sockaddr* from) {
  Question q;
  if (!parse_question(data, length, q)) return;
  auto* pending = new Pending{};
  pending->server = this;
  pending->name = q.name;
  pending->reply = reply_to(data, q, in_domain(q.name));
  std::memcpy(&pending->to, from, from->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in));
  bool held = in_domain(q.name);
  if (held) {
    std::lock_guard lock(mutex_);
    ++held_[q.name];
    max_concurrent_ = std::max(max_concurrent_, static_cast<int>(held_.size()));
  }
  uv_timer_init(&loop_, &pending->timer);
  pending->timer.data = pending;
  uv_timer_start(&pending->timer, [](uv_timer_t* t) {
    auto* p = static_cast<Pending*>(t->data);
    p->server->on_due(p);
  }, held ? static_cast<std::uint64_t>(delay_ms_.load()) : 0, 0);
}

void DelayingDnsServer::on_due(Pending* pending) {
  uv_buf_t buf = uv_buf_init(pending->reply.data(), static_cast<unsigned>(pending->reply.size()));
  uv_udp_try_send(&socket_, &buf, 1, reinterpret_cast<const sockaddr*>(&pending->to));
  if (in_domain(pending->name)) {
    std::lock_guard lock(mutex_);
    if (--held_[pending->name] == 0) held_.erase(pending->name);
    ++answered_;
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&pending->timer), [](uv_handle_t* h) { delete static_cast<Pending*>(h->data); });
}

int DelayingDnsServer::max_concurrent_names() {
  std::lock_guard lock(mutex_);
  return max_concurrent_;
}

int DelayingDnsServer::answered() {
  std::lock_guard lock(mutex_);
  return answered_;
}

void DelayingDnsServer::reset_counts() {
  std::lock_guard lock(mutex_);
  max_concurrent_ = static_cast<int>(held_.size());
  answered_ = 0;
}

}  // namespace stallbench
