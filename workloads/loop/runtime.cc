// The runtime's queues, its loop driver and the callbacks that are not timers or fs calls
// (runtime_timers.cc, runtime_fs.cc).
#include "runtime.h"

#include <cstdio>
#include <stdexcept>

#include "../common/uv_check.h"
#include "busy_wait.h"

namespace stallbench::loop {

TimerPhase timer_phase(unsigned major, unsigned minor) {
  bool after_poll = major > 1 || (major == 1 && minor >= 45);
  bool reruns = major < 1 || (major == 1 && minor < 48);
  std::string text = after_poll ? "timers run after poll and check (libuv 1.45+, as in Node 20+), and once before the first iteration"
                                : "timers run at the start of each loop iteration, before poll and check (libuv before 1.45)";
  if (reruns) text += "; Node's timer, re-armed and due again before its pass ends, runs again in that pass (libuv before 1.48)";
  return {after_poll, reruns, text};
}

struct Runtime::Immediate {
  ImmediateId id;
  Callback callback;
  bool cleared = false;
};

struct Runtime::Work {
  uv_work_t req;
  Runtime* runtime;
  std::function<void()> work;
  Callback after;
  std::exception_ptr error;  // from `work`, rethrown on the loop thread as the callback's failure
};

Runtime::Runtime(const NodeLineModel& model)
    : model_(model),
      reruns_rearmed_timers_([&] {
        unsigned major = 0, minor = 0;
        std::sscanf(model.libuv.c_str(), "%u.%u", &major, &minor);
        return timer_phase(major, minor).reruns_rearmed;
      }()),
      thrown_queues_(model.thrown_queues == ThrownQueues::either ? ThrownQueues::next_callback : model.thrown_queues) {
  uv_check(uv_loop_configure(loop(), UV_METRICS_IDLE_TIME), "uv_loop_configure");  // longest_stall_ms
  loop()->data = this;  // a pool request's callback notes how long it took (runtime_fs.cc)
  uv_check(uv_timer_init(loop(), &wakeup_), "uv_timer_init");
  uv_check(uv_idle_init(loop(), &timer_due_), "uv_idle_init");
  uv_check(uv_check_init(loop(), &check_handle_), "uv_check_init");
  uv_check(uv_prepare_init(loop(), &prepare_handle_), "uv_prepare_init");
  uv_check(uv_idle_init(loop(), &idle_handle_), "uv_idle_init");
  wakeup_.data = timer_due_.data = check_handle_.data = idle_handle_.data = prepare_handle_.data = this;
  // As in Node: the check handle always runs but does not keep the loop alive; the idle handle is
  // active only while immediates are pending, which keeps the loop alive and poll from blocking.
  uv_check(uv_check_start(&check_handle_, [](uv_check_t* h) { static_cast<Runtime*>(h->data)->check_phase(); }),
           "uv_check_start");
  uv_unref(reinterpret_cast<uv_handle_t*>(&check_handle_));
  uv_check(uv_prepare_start(&prepare_handle_, [](uv_prepare_t* h) { static_cast<Runtime*>(h->data)->prepare_phase(); }),
           "uv_prepare_start");
  uv_unref(reinterpret_cast<uv_handle_t*>(&prepare_handle_));
  // Whether Node's timer keeps the loop alive is the wakeup timer's ref (update_timer_ref); this
  // idle handle only keeps poll from blocking, never the loop alive.
  uv_unref(reinterpret_cast<uv_handle_t*>(&timer_due_));
  update_timer_ref();
}

Runtime::~Runtime() {
  // Requests still in flight (after a failure) complete during this last run; `closing_` keeps
  // their callbacks from reaching user code, which may already be gone.
  closing_ = true;
  while (!servers_.empty()) close_server(*servers_.begin());  // a run that ended before 'listening'
  for (auto* h : {reinterpret_cast<uv_handle_t*>(&wakeup_), reinterpret_cast<uv_handle_t*>(&timer_due_),
                  reinterpret_cast<uv_handle_t*>(&check_handle_), reinterpret_cast<uv_handle_t*>(&idle_handle_),
                  reinterpret_cast<uv_handle_t*>(&prepare_handle_)})
    uv_close(h, nullptr);
  uv_run(loop(), UV_RUN_DEFAULT);
}

void Runtime::drain() {
  do {
    do {
      while (!ticks_.empty()) {
        Callback cb = std::move(ticks_.front());
        ticks_.pop_front();
        cb();
      }
      while (!microtasks_.empty()) {
        Callback cb = std::move(microtasks_.front());
        microtasks_.pop_front();
        try {
          cb();
        } catch (const Thrown&) {
          report_thrown();  // V8 reports it and goes on with the next microtask
          if (died_) return;
        }
      }
    } while (!ticks_.empty());
  } while (report_rejections());
}

void Runtime::fail(std::exception_ptr error) {
  if (!failure_) failure_ = error;
  uv_stop(loop());
}

void Runtime::run_main(ModuleKind kind, Callback body, const std::string& module_file) {
  busy_since_ns_ = uv_hrtime();
  idle_since_ns_ = uv_metrics_idle_time(loop());
  if (kind == ModuleKind::commonjs) {
    invoke(body);
  } else if (model_.esm_entry == EsmEntry::before_loop) {
    invoke([&] { queue_microtask(std::move(body)); });
  } else {
    // The ES module loader awaits the entry's source, read through the pool; the body is
    // evaluated when the loader resumes, in a microtask after that completion.
    read_file(module_file, [this, body = std::move(body), module_file](std::string, std::string error) {
      if (!error.empty()) throw std::runtime_error("reading the ES module entry " + module_file + ": " + error);
      queue_microtask(body);
    });
  }
  if (!stopped()) {
    busy_wait(startup_tail_ms_);
    run_until_exit();
  }
  note_busy_span();  // the last stretch: a loop whose work ends in a callback never reaches prepare again
  if (failure_) std::rethrow_exception(failure_);
  for (auto& listener : exit_listeners_) listener();  // nothing they queue runs
}

void Runtime::run_until_exit() {
  while (!stopped()) {
    run_loop();  // returns when nothing keeps the loop alive, or after a failure
    if (stopped()) return;
    emit_before_exit();
    if (!alive()) return;
  }
}

// Node's timer handle is alive until the timers phase has run it, even when the wakeup timer that
// stands for it inside uv_run has already fired.
bool Runtime::alive() { return uv_loop_alive(loop()) != 0 || (timer_armed_ && refed_timers_ > 0); }

void Runtime::run_loop() {
  looping_ = true;
  bool after_poll = model_.timers_after_poll;
  bool more = alive();
  if (after_poll && more) run_due_timers();  // libuv 1.45+: "for backwards compatibility"
  while (more && !stopped()) {
    if (!after_poll) run_due_timers();
    uv_run(loop(), UV_RUN_ONCE);  // pending, idle, prepare, poll, check, close
    if (after_poll && !stopped()) run_due_timers();
    more = alive();
  }
}

void Runtime::emit_before_exit() {
  if (before_exit_.empty()) return;
  invoke([this] {
    auto listeners = before_exit_;  // an emit calls the listeners registered when it began
    for (auto& [id, listener] : listeners) listener();
  });
}

std::uint64_t Runtime::on_before_exit(Callback listener) {
  before_exit_.emplace(next_listener_id_, std::move(listener));
  return next_listener_id_++;
}

void Runtime::off_before_exit(std::uint64_t id) { before_exit_.erase(id); }

void Runtime::next_tick(Callback cb) { ticks_.push_back(std::move(cb)); }

void Runtime::queue_microtask(Callback cb) { microtasks_.push_back(std::move(cb)); }

ImmediateId Runtime::set_immediate(Callback cb) {
  immediates_.push_back(std::make_shared<Immediate>(Immediate{next_immediate_id_, std::move(cb)}));
  if (++pending_immediates_ == 1) uv_check(uv_idle_start(&idle_handle_, [](uv_idle_t*) {}), "uv_idle_start");
  return next_immediate_id_++;
}

void Runtime::clear_immediate(ImmediateId id) {
  for (auto* queue : {&immediates_, &running_immediates_})
    for (auto& immediate : *queue)
      if (immediate->id == id && !immediate->cleared) {
        immediate->cleared = true;
        if (--pending_immediates_ == 0) uv_idle_stop(&idle_handle_);
        return;
      }
}

void Runtime::set_thrown_queues(ThrownQueues where) {
  if (model_.thrown_queues != ThrownQueues::either ||
      (where != ThrownQueues::next_callback && where != ThrownQueues::drained_in_poll))
    throw std::logic_error("set_thrown_queues: next_callback or drained_in_poll, on a line where it varies");
  thrown_queues_ = where;
}

void Runtime::note_busy_span() {
  std::uint64_t now = uv_hrtime(), idle = uv_metrics_idle_time(loop());
  std::uint64_t waited = idle - idle_since_ns_, elapsed = now - busy_since_ns_;
  note_stall(elapsed > waited ? elapsed - waited : 0);
  busy_since_ns_ = now;
  idle_since_ns_ = idle;
}

void Runtime::prepare_phase() {
  note_busy_span();
  // A task V8 posted (Node's platform runs it from an async handle in the poll phase, in a callback
  // scope): its scope's close drains what a handled throw left. Only a throw leaves them queued here.
  // Seen only after a throw in one of the loop's callbacks, never after one in the main module's
  // drain (Node 26, heldout h13: 0 of 60 runs).
  if (thrown_queues_ == ThrownQueues::drained_in_poll && thrown_in_loop_ && (!ticks_.empty() || !microtasks_.empty()))
    invoke([] {});
}

void Runtime::check_phase() {
  // Node's CheckImmediate: up to Node 24 its RunAndClearNativeImmediates opens a callback scope
  // every time, whose close drains what a handled exception left in the queues.
  if (thrown_queues_ == ThrownQueues::drained_at_check) invoke([] {});
  run_immediates();
}

void Runtime::run_immediates() {
  if (immediates_.empty()) return;
  invoke([this] {
    running_immediates_.swap(immediates_);  // those queued from here on wait for the next iteration
    bool ran_one = false;
    while (!running_immediates_.empty() && !died_) {
      try {
        if (ran_one) drain();
      } catch (const Thrown&) {
        // processImmediate threw before the next immediate: CheckImmediate calls it again for the
        // rest, which runs the next one with no drain before it.
        report_thrown();
        ran_one = false;
        continue;
      }
      ran_one = true;
      std::shared_ptr<Immediate> immediate = std::move(running_immediates_.front());
      running_immediates_.pop_front();
      if (immediate->cleared) continue;
      immediate->cleared = true;
      --pending_immediates_;
      try {
        immediate->callback();
      } catch (const Thrown&) {
        // Node's CheckImmediate calls processImmediate again at once for the rest, which runs
        // the next one with no drain before it.
        report_thrown();
        ran_one = false;
      }
    }
  });
  running_immediates_.clear();  // left over only after a failure
  if (pending_immediates_ == 0) uv_idle_stop(&idle_handle_);
}

void Runtime::close_socket(Callback on_close) {
  struct Socket {
    uv_tcp_t handle;
    Runtime* runtime;
    Callback on_close;
  };
  auto* socket = new Socket{{}, this, std::move(on_close)};
  int rc = uv_tcp_init(loop(), &socket->handle);
  if (rc < 0) {
    delete socket;
    throw UvError("uv_tcp_init", rc);
  }
  socket->handle.data = socket;
  uv_close(reinterpret_cast<uv_handle_t*>(&socket->handle), [](uv_handle_t* h) {
    std::unique_ptr<Socket> socket(static_cast<Socket*>(h->data));
    socket->runtime->invoke([&] { socket->on_close(); });
  });
}

void Runtime::lookup(const std::string& name, LookupDone done) {
  stallbench::lookup(loop(), name, [this, done = std::move(done)](std::string address, std::string error) {
    invoke([&] { done(std::move(address), std::move(error)); });
  });
}

void Runtime::queue_work(std::function<void()> work, Callback after) {
  auto* item = new Work{{}, this, std::move(work), std::move(after), nullptr};
  item->req.data = item;
  int rc = uv_queue_work(
      loop(), &item->req,
      [](uv_work_t* req) {
        auto* item = static_cast<Work*>(req->data);
        try {
          item->work();
        } catch (...) {
          item->error = std::current_exception();
        }
      },
      [](uv_work_t* req, int status) {
        std::unique_ptr<Work> item(static_cast<Work*>(req->data));
        item->runtime->invoke([&] {
          if (status < 0) throw UvError("uv_queue_work", status);
          if (item->error) std::rethrow_exception(item->error);
          item->after();
        });
      });
  if (rc < 0) {
    delete item;
    throw UvError("uv_queue_work", rc);
  }
}

}  // namespace stallbench::loop
