// Node's timers (lib/internal/timers.js and src/env.cc's RunTimers) on one libuv timer, run by
// the loop driver at the modelled libuv's timers phase.
#include <algorithm>
#include <cmath>

#include "../common/uv_check.h"
#include "runtime.h"

namespace stallbench::loop {

struct Runtime::Timer {
  TimerId id;
  std::int64_t duration;
  bool repeat;
  Callback callback;
  std::uint64_t start = 0;
  bool refed = true;
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
  ++refed_timers_;
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

void Runtime::schedule_timer_handle(std::int64_t duration_ms) {
  // The deadline is what libuv's timer would have: the loop's cached time plus the duration.
  timer_deadline_ = uv_now(loop()) + static_cast<std::uint64_t>(duration_ms);
  timer_armed_ = true;
  uv_check(uv_timer_start(&wakeup_, [](uv_timer_t* h) {
             // Due inside uv_run, before Node's timers phase comes round: poll must not wait.
             auto* self = static_cast<Runtime*>(h->data);
             uv_check(uv_idle_start(&self->timer_due_, [](uv_idle_t*) {}), "uv_idle_start");
           }, static_cast<std::uint64_t>(duration_ms), 0),
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
  // Node's refCount: its timer handle keeps the loop alive only while a refed timer is pending.
  auto* h = reinterpret_cast<uv_handle_t*>(&wakeup_);
  if (refed_timers_ == 0) {
    uv_unref(h);
  } else {
    uv_ref(h);
  }
}

void Runtime::forget_timer(const Timer& timer) {
  timers_.erase(timer.id);
  if (timer.refed) --refed_timers_;
  update_timer_ref();
}

void Runtime::unref_timer(TimerId id) {
  auto found = timers_.find(id);
  if (found == timers_.end() || !found->second->refed) return;
  found->second->refed = false;
  --refed_timers_;
  update_timer_ref();
}

void Runtime::clear_timer(TimerId id) {
  auto found = timers_.find(id);
  if (found == timers_.end()) return;
  std::shared_ptr<Timer> timer = found->second;
  forget_timer(*timer);
  timer->cleared = true;
  if (timer->listed) {
    auto& list = *lists_.at(timer->duration);
    list.timers.erase(timer->where);
    timer->listed = false;
    // Node's unenroll drops an emptied list only for a refed timer ("unrefed ones are incredibly
    // likely to come from http and be recreated shortly after"): an unref'd one's stays queued,
    // keeps its place among lists due together, and a timer of that duration armed before it is
    // due joins it.
    if (list.timers.empty() && timer->refed) drop_list(timer->duration);
  } else if (timer->refed) {
    // Node's unenroll looks at the list of the timer's duration even when the timer is not on it
    // (one whose callback is running: listOnTimeout took it off first), and drops it when empty: a
    // pass that a throw restarts (RunTimers calls processTimers again) then starts at the next
    // list, with no drain before it.
    auto found = lists_.find(timer->duration);
    if (found != lists_.end() && found->second->timers.empty()) drop_list(timer->duration);
  }
}

void Runtime::run_due_timers() {
  if (!timer_armed_) return;
  std::uint64_t at = now();
  if (at < timer_deadline_) return;
  // A process the machine woke late from poll: its wait there is idle time to libuv's metric, yet
  // timers slots apart now run in one pass (random-24-3 on a busy machine).
  note_stall((at - timer_deadline_) * 1'000'000);
  do {
    timer_armed_ = false;
    uv_timer_stop(&wakeup_);
    uv_idle_stop(&timer_due_);
    run_timers();
    // Before libuv 1.48 the pass looks at its heap again: Node's timer, re-armed during the queues'
    // drain (scheduleTimer) for a deadline the loop's cached time has reached since (each
    // getLibuvNow moves it on), runs again at once, before poll and check (random-4040-48).
  } while (reruns_rearmed_timers_ && timer_armed_ && !stopped() && uv_now(loop()) >= timer_deadline_);
}

void Runtime::run_timers() {
  invoke([this] {
    std::uint64_t next = 0;
    // Node's RunTimers calls processTimers again after a timer threw (the listeners having run),
    // for the timers left, with no drain first and the same `now`: the queues run once it returns.
    const std::uint64_t started = now();
    for (bool done = false; !done && !died_;) {
      try {
        next = process_timers(started);
        done = true;
      } catch (const Thrown&) {
        report_thrown();
      }
    }
    if (died_) return;
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
    // Held before the queues run: a tick or microtask may clear this list's last timer, which
    // drops it. Node then calls listOnTimeout on the detached, empty list, which does nothing.
    std::shared_ptr<TimerList> list = lists_.at(duration);
    if (ran_a_list) drain();
    ran_a_list = true;
    list_on_timeout(list, now);
  }
  return 0;
}

// listOnTimeout, the same on every modelled line (18-26 differ only in async context and destroy
// hooks): the list's front is peeked and checked, the queues run, and only then is the timer taken
// off. What the queues cleared is skipped, and the list is read again, so a timer they cleared
// never runs and the one behind it still does.
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
    if (timer->cleared) continue;  // taken off its list by the clear, at once
    list->timers.pop_front();
    timer->listed = false;
    std::uint64_t start = timer->repeat ? this->now() : 0;
    auto settle = [&] {  // listOnTimeout's `finally`: also when the callback threw
      if (timer->repeat && !timer->cleared) {
        insert_timer(timer, start);
      } else if (!timer->cleared) {
        forget_timer(*timer);
      }
    };
    try {
      timer->callback();
    } catch (...) {
      settle();
      throw;
    }
    settle();
  }
  // The list may have been dropped (its last timer cleared) and replaced during the pass.
  if (auto found = lists_.find(list->duration); found != lists_.end() && found->second == list)
    drop_list(list->duration);
}

}  // namespace stallbench::loop
