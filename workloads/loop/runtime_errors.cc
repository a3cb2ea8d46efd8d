// What a scenario's callbacks can do besides scheduling: throw (and 'uncaughtException'), leave a
// promise rejected ('unhandledRejection', a late handler and 'rejectionHandled'), listen on a
// server, and what runs when the process ends ('exit'). Node's lib/internal/process/promises.js
// and execution.js, as far as the order of callbacks goes.
#include <netinet/in.h>

#include "../common/uv_check.h"
#include "runtime.h"

namespace stallbench::loop {

struct Runtime::Rejection {
  Callback listener;    // 'unhandledRejection'
  Callback on_handled;  // 'rejectionHandled'
  bool reported = false;
  bool handled = false;
};

Runtime::RejectionId Runtime::reject_unhandled(Callback listener, Callback on_handled) {
  auto rejection = std::make_shared<Rejection>(Rejection{std::move(listener), std::move(on_handled)});
  rejections_.push_back(rejection);
  rejected_.emplace(next_rejection_id_, rejection);
  return next_rejection_id_++;
}

void Runtime::handle_rejection(RejectionId id, Callback reaction) {
  auto found = rejected_.find(id);
  if (found == rejected_.end()) return;
  Rejection& rejection = *found->second;
  queue_microtask(std::move(reaction));  // the promise is settled: its reaction is queued at once
  if (rejection.handled) return;
  rejection.handled = true;  // handledRejection: dropped from the pending ones, or reported late
  if (rejection.reported && rejection.on_handled) handled_late_.push_back(rejection.on_handled);
}

bool Runtime::report_rejections() {
  // processPromiseRejections: the late handlers' 'rejectionHandled' first, then the rejections
  // pending now, each listener in turn; those their listeners cause wait for the next round,
  // after the queues are drained again. Those handled before the report began are never reported;
  // one an earlier listener handles is skipped by Node 18 and reported from Node 20 on (the
  // pending ones are taken at once), and then gets no 'rejectionHandled'.
  bool ran = !handled_late_.empty();
  while (!handled_late_.empty()) {
    Callback listener = std::move(handled_late_.front());
    handled_late_.pop_front();
    listener();
  }
  std::deque<std::shared_ptr<Rejection>> pending;
  pending.swap(rejections_);
  std::erase_if(pending, [](const auto& rejection) { return rejection->handled; });
  for (auto& rejection : pending) {
    if (rejection->handled && model_.rejection_report == RejectionReport::skips_handled) continue;
    rejection->reported = true;
    rejection->listener();
    ran = true;
  }
  return ran;
}

void Runtime::on_uncaught_exception(Callback listener) { uncaught_listeners_.push_back(std::move(listener)); }

void Runtime::on_exit(Callback listener) { exit_listeners_.push_back(std::move(listener)); }

void Runtime::report_thrown() {
  if (uncaught_listeners_.empty()) {
    died_ = true;  // the process ends: nothing else runs but the 'exit' listeners
    uv_stop(loop());
    return;
  }
  thrown_in_loop_ = thrown_in_loop_ || looping_;
  auto listeners = uncaught_listeners_;  // an emit calls the listeners registered when it began
  for (auto& listener : listeners) listener();
  // "make sure any ticks get processed by ensuring that the next Immediate cycle isn't empty"
  // (lib/internal/process/execution.js): the queues the throw left run at the latest after it.
  set_immediate([] {});
}

void Runtime::close_server(uv_tcp_t* server) {
  if (servers_.erase(server) == 0) return;
  uv_close(reinterpret_cast<uv_handle_t*>(server), [](uv_handle_t* h) { delete reinterpret_cast<uv_tcp_t*>(h); });
}

void Runtime::listen(Callback on_listening) {
  auto* server = new uv_tcp_t;
  server->data = this;
  uv_check(uv_tcp_init(loop(), server), "uv_tcp_init");
  sockaddr_in address{};
  uv_check(uv_ip4_addr("127.0.0.1", 0, &address), "uv_ip4_addr");
  servers_.insert(server);
  auto close = [this](uv_tcp_t* handle) { close_server(handle); };
  int rc = uv_tcp_bind(server, reinterpret_cast<const sockaddr*>(&address), 0);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(server), 511, [](uv_stream_t*, int) {});
  if (rc < 0) {
    close(server);
    throw UvError("listen on 127.0.0.1", rc);
  }
  // dns.lookup of an IP address answers in a tick; the bound server emits 'listening' in another.
  next_tick([this, server, close, on_listening = std::move(on_listening)]() mutable {
    next_tick([server, close, on_listening = std::move(on_listening)] {
      close(server);  // server.close() in the listener: the handle closes in this turn's close phase
      on_listening();
    });
  });
}

}  // namespace stallbench::loop
