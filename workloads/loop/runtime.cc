#include "runtime.h"

#include <algorithm>
#include <cmath>

#include "../common/uv_check.h"

namespace stallbench::loop {

TimerPhase timer_phase(unsigned major, unsigned minor) {
  bool after_poll = major > 1 || (major == 1 && minor >= 45);
  return {after_poll, after_poll ? "timers run after poll and check (libuv 1.45+, as in Node 20+), and once before the first iteration"
                                 : "timers run at the start of each loop iteration, before poll and check (libuv before 1.45)"};
}

TimerPhase linked_timer_phase() {
  unsigned v = uv_version();
  return timer_phase((v >> 16) & 0xff, (v >> 8) & 0xff);
}

struct Runtime::Timer {
  TimerId id;
  std::int64_t duration;
  bool repeat;
  Callback callback;
  std::uint64_t start = 0;
  bool listed = false;   // in its duration's list, waiting
  bool cleared = false;  // clear_timer was called (perhaps from its own callback)
  std::list<std::shared_ptr<Timer>>::iterator where;
};

// The timers of one duration, in start order: each expires after the one before it.
struct Runtime::TimerList {
  std::int64_t duration;
  ListKey key;
  std::list<std::shared_ptr<Timer>> timers;
};

struct Runtime::Work {
  uv_work_t req;
  Runtime* runtime;
  std::function<void()> work;
  Callback after;
  std::exception_ptr error;  // from `work`, rethrown on the loop thread as the callback's failure
};

Runtime::Runtime() {
  uv_check(uv_timer_init(loop(), &timer_handle_), "uv_timer_init");
  uv_check(uv_check_init(loop(), &check_handle_), "uv_check_init");
  uv_check(uv_idle_init(loop(), &idle_handle_), "uv_idle_init");
  timer_handle_.data = check_handle_.data = idle_handle_.data = this;
  // As in Node: the check handle always runs but does not keep the loop alive; the idle handle is
  // active only while immediates are pending, which keeps the loop alive and poll from blocking.
  uv_check(uv_check_start(&check_handle_, [](uv_check_t* h) { static_cast<Runtime*>(h->data)->run_immediates(); }),
           "uv_check_start");
  uv_unref(reinterpret_cast<uv_handle_t*>(&check_handle_));
}

Runtime::~Runtime() {
  // Requests still in flight (after a failure) complete during this last run; `closing_` keeps
  // their callbacks from reaching user code, which may already be gone.
  closing_ = true;
  for (auto* h : {reinterpret_cast<uv_handle_t*>(&timer_handle_), reinterpret_cast<uv_handle_t*>(&check_handle_),
                  reinterpret_cast<uv_handle_t*>(&idle_handle_)})
    uv_close(h, nullptr);
  uv_run(loop(), UV_RUN_DEFAULT);
}

template <typename F>
void Runtime::invoke(F&& cb) {
  if (failure_ || closing_) return;
  if (depth_ > 0) return cb();
  ++depth_;
  try {
    cb();
    drain();
  } catch (...) {
    fail(std::current_exception());
  }
  --depth_;
}

void Runtime::drain() {
  do {
    while (!ticks_.empty()) {
      Callback cb = std::move(ticks_.front());
      ticks_.pop_front();
      cb();
    }
    while (!microtasks_.empty()) {
      Callback cb = std::move(microtasks_.front());
      microtasks_.pop_front();
      cb();
    }
  } while (!ticks_.empty());
}

void Runtime::fail(std::exception_ptr error) {
  if (!failure_) failure_ = error;
  uv_stop(loop());
}

void Runtime::run_main(ModuleKind kind, Callback body) {
  if (kind == ModuleKind::commonjs) {
    invoke(body);
  } else {
    invoke([&] { queue_microtask(std::move(body)); });
  }
  if (!failure_) uv_run(loop(), UV_RUN_DEFAULT);
  if (failure_) std::rethrow_exception(failure_);
}

void Runtime::next_tick(Callback cb) { ticks_.push_back(std::move(cb)); }

void Runtime::queue_microtask(Callback cb) { microtasks_.push_back(std::move(cb)); }

void Runtime::set_immediate(Callback cb) {
  immediates_.push_back(std::move(cb));
  if (immediates_.size() == 1) uv_check(uv_idle_start(&idle_handle_, [](uv_idle_t*) {}), "uv_idle_start");
}

void Runtime::run_immediates() {
  if (immediates_.empty()) return;
  invoke([this] {
    running_immediates_.swap(immediates_);  // those queued from here on wait for the next iteration
    bool ran_one = false;
    while (!running_immediates_.empty()) {
      if (ran_one) drain();
      ran_one = true;
      Callback cb = std::move(running_immediates_.front());
      running_immediates_.pop_front();
      cb();
    }
  });
  running_immediates_.clear();  // left over only after a failure
  if (immediates_.empty()) uv_idle_stop(&idle_handle_);
}

std::int64_t Runtime::timer_duration(double ms) {
  if (!(ms >= 1 && ms <= 2147483647.0)) ms = 1;
  return static_cast<std::int64_t>(std::trunc(ms));
}

std::uint64_t Runtime::now() {
  uv_update_time(loop());
  return uv_now(loop());
}

TimerId Runtime::set_timeout(Callback cb, double ms) { return add_timer(std::move(cb), ms, false); }

TimerId Runtime::set_interval(Callback cb, double ms) { return add_timer(std::move(cb), ms, true); }

TimerId Runtime::add_timer(Callback cb, double ms, bool repeat) {
  auto timer = std::make_shared<Timer>(Timer{next_timer_id_++, timer_duration(ms), repeat, std::move(cb)});
  timers_.emplace(timer->id, timer);
  insert_timer(timer, now());
  update_timer_ref();
  return timer->id;
}

void Runtime::insert_timer(const std::shared_ptr<Timer>& timer, std::uint64_t start) {
  timer->start = start;
  auto found = lists_.find(timer->duration);
  if (found == lists_.end()) {
    std::uint64_t expiry = start + static_cast<std::uint64_t>(timer->duration);
    auto list = std::make_shared<TimerList>(
        TimerList{timer->duration, {expiry, next_list_order_++, timer->duration}, {}});
    list_queue_.insert(list->key);
    found = lists_.emplace(timer->duration, list).first;
    if (next_expiry_ > expiry) {
      schedule_timer_handle(timer->duration);
      next_expiry_ = expiry;
    }
  }
  auto& timers = found->second->timers;
  timer->where = timers.insert(timers.end(), timer);
  timer->listed = true;
}

void Runtime::schedule_timer_handle(std::int64_t duration_ms) {  // Node's ScheduleTimer
  uv_check(uv_timer_start(&timer_handle_, [](uv_timer_t* h) { static_cast<Runtime*>(h->data)->run_timers(); },
                          static_cast<std::uint64_t>(duration_ms), 0),
           "uv_timer_start");
}

void Runtime::requeue(TimerList& list, std::uint64_t expiry) {
  list_queue_.erase(list.key);
  list.key = {expiry, next_list_order_++, list.duration};
  list_queue_.insert(list.key);
}

void Runtime::drop_list(std::int64_t duration) {
  auto found = lists_.find(duration);
  if (found == lists_.end()) return;
  list_queue_.erase(found->second->key);
  lists_.erase(found);
}

void Runtime::update_timer_ref() {
  // Node's refCount: the timer handle keeps the loop alive only while a timer is pending.
  auto* h = reinterpret_cast<uv_handle_t*>(&timer_handle_);
  if (timers_.empty()) {
    uv_unref(h);
  } else {
    uv_ref(h);
  }
}

void Runtime::clear_timer(TimerId id) {
  auto found = timers_.find(id);
  if (found == timers_.end()) return;
  std::shared_ptr<Timer> timer = found->second;
  timers_.erase(found);
  timer->cleared = true;
  if (timer->listed) {
    auto& list = *lists_.at(timer->duration);
    list.timers.erase(timer->where);
    timer->listed = false;
    if (list.timers.empty()) drop_list(timer->duration);
  }
  update_timer_ref();
}

void Runtime::run_timers() {
  invoke([this] {
    std::uint64_t next = process_timers(now());
    if (next != 0) {
      // Relative to the loop's cached time, as Node's RunTimers does.
      auto duration = static_cast<std::int64_t>(next - uv_now(loop()));
      schedule_timer_handle(std::max<std::int64_t>(duration, 1));
    }
  });
}

std::uint64_t Runtime::process_timers(std::uint64_t now) {
  next_expiry_ = UINT64_MAX;
  bool ran_a_list = false;
  while (!list_queue_.empty()) {
    auto [expiry, order, duration] = *list_queue_.begin();
    if (expiry > now) {
      next_expiry_ = expiry;
      return expiry;
    }
    if (ran_a_list) drain();
    ran_a_list = true;
    std::shared_ptr<TimerList> list = lists_.at(duration);  // a copy: a callback may drop the list
    list_on_timeout(list, now);
  }
  return 0;
}

void Runtime::list_on_timeout(const std::shared_ptr<TimerList>& list, std::uint64_t now) {
  bool ran_a_timer = false;
  while (!list->timers.empty()) {
    std::shared_ptr<Timer> timer = list->timers.front();
    // Timers started after `now` (by a callback of this same pass) wait for a later pass.
    if (static_cast<std::int64_t>(now - timer->start) < list->duration) {
      requeue(*list, std::max(timer->start + static_cast<std::uint64_t>(list->duration), now + 1));
      return;
    }
    if (ran_a_timer) drain();
    ran_a_timer = true;
    list->timers.pop_front();
    timer->listed = false;
    std::uint64_t start = timer->repeat ? this->now() : 0;
    timer->callback();
    if (timer->repeat && !timer->cleared) {
      insert_timer(timer, start);
    } else if (!timer->cleared) {
      timers_.erase(timer->id);
      update_timer_ref();
    }
  }
  // The list may have been dropped (its last timer cleared) and replaced during the pass.
  if (auto found = lists_.find(list->duration); found != lists_.end() && found->second == list)
    drop_list(list->duration);
}

void Runtime::read_file(std::string path, FileReadDone done) {
  stallbench::read_file(loop(), std::move(path), [this, done = std::move(done)](std::string bytes, std::string error) {
    invoke([&] { done(std::move(bytes), std::move(error)); });
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
