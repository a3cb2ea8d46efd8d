// A DNS server of our own for the slow-DNS reproduction (nodejs/node#8436): it answers every A
// query under stallbench.test with 127.0.0.1 (AAAA with no records) after a fixed delay, as an
// overloaded or distant resolver would, and refuses everything else at once. It runs on its own
// thread and loop, bound to 127.0.0.1:53, so only inside PrivateResolver's namespace can anything
// reach it, and it can reach nothing. It also counts how many names it was holding queries for
// at the same moment: the number of lookups libuv let run side by side.
#pragma once

#include <uv.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace stallbench {

class PrivateResolver;

class DelayingDnsServer {
 public:
  // Takes the private resolver as proof that the namespace is in place; throws
  // std::runtime_error if the socket cannot be bound.
  DelayingDnsServer(const PrivateResolver& resolver, std::chrono::milliseconds delay);
  ~DelayingDnsServer();
  DelayingDnsServer(const DelayingDnsServer&) = delete;
  DelayingDnsServer& operator=(const DelayingDnsServer&) = delete;

  void set_delay(std::chrono::milliseconds delay) { delay_ms_ = delay.count(); }
  int max_concurrent_names();  // since the last reset
  int answered();              // queries answered in the domain, since the last reset
  void reset_counts();

 private:
  struct Pending;
  static void close_everything(uv_loop_t* loop);
  void on_query(const char* data, std::size_t length, const sockaddr* from);
  void on_due(Pending* pending);

  std::atomic<std::int64_t> delay_ms_;
  uv_loop_t loop_;
  uv_udp_t socket_;
  uv_async_t stop_;
  char buffer_[4096];
  std::thread thread_;
  std::mutex mutex_;                   // guards the counts, read from other threads
  std::map<std::string, int> held_;    // name -> queries held for it now
  int max_concurrent_ = 0, answered_ = 0;
};

}  // namespace stallbench
