// The player's helpers (scenario_player.h) for the callbacks that are more than one call: repeating
// ones, fs calls that check how they ended, intervals, open/close, promise chains, thenables and
// 'beforeExit' listeners.
#include <unistd.h>

#include "scenario_player.h"

namespace stallbench::loop {
namespace {

// An fs call must end as the scenario says: with its `error`, or without one.
void check_outcome(const Op& op, const std::string& error) {
  if (error == op.error) return;
  throw std::runtime_error(op.where + ": " + op_name(op.kind) + ": " +
                           (error.empty() ? "succeeded, but the scenario expects " + op.error : error));
}

}  // namespace

// An op with `repeat`: its callback schedules itself again (`schedule`) after its ops until it has
// run that often. The state is held by the callback scheduled next, never by itself: one the
// loop never runs (the process ended first) is freed with it.
void Player::repeating(const Op& op, const Scope& scope, const std::function<void(Callback)>& schedule) {
  struct Repeat {
    Player* player;
    const Op* op;
    Scope scope;
    std::function<void(Callback)> schedule;
    int calls = 0;
    static void arm(const std::shared_ptr<Repeat>& state) {
      state->schedule([state] {
        state->player->callback(*state->op, state->scope, ++state->calls);
        if (state->calls < state->op->repeat) arm(state);
      });
    }
  };
  Repeat::arm(std::make_shared<Repeat>(Repeat{this, &op, scope, schedule}));
}

// Schedules `op`'s callback with `schedule`: once, or again and again with `repeat`.
Promise Player::scheduled(const Op& op, const Scope& scope, const Promise& promise,
                          const std::function<void(Callback)>& schedule) {
  if (op.repeat > 1) {
    repeating(op, scope, schedule);
  } else {
    schedule(settling(op, scope, promise));
  }
  return promise;
}

// A `then` callback that returns nothing.
Promise Player::plain_callback(const Op& op, const Scope& scope) {
  callback(op, scope);
  return nullptr;
}

// The op's callback, then its promise settled (when it has one).
Callback Player::settling(const Op& op, const Scope& scope, const Promise& promise) {
  return [this, &op, scope, promise] {
    callback(op, scope);
    if (promise) promises_.fulfil(promise);
  };
}

std::function<void(std::string)> Player::fs_callback(const Op& op, const Scope& scope, const Promise& promise) {
  return [&op, done = settling(op, scope, promise)](const std::string& error) {
    check_outcome(op, error);
    done();
  };
}

void Player::name_timer(const Op& op, TimerId id) {
  if (op.unref) runtime_.unref_timer(id);
  if (!op.name.empty()) timers_[op.name] = id;
}

void Player::start_interval(const Op& op, const Scope& scope) {
  auto id = std::make_shared<TimerId>();
  auto ticks = std::make_shared<int>(0);
  *id = runtime_.set_interval([this, &op, scope, id, ticks] {
    if (++*ticks == op.count) runtime_.clear_timer(*id);
    callback(op, scope);
  }, op.ms);
  name_timer(op, *id);
}

void Player::start_open(const Op& op, const Promise& promise) {
  runtime_.open(op.path, [this, &op, promise](int fd, const std::string& error) {
    if (fd >= 0) open_files_.insert(fd);
    check_outcome(op, error);
    settling(op, Scope{fd >= 0 ? std::make_shared<const int>(fd) : nullptr}, promise)();
  });
}

void Player::start_close(const Op& op, const Scope& scope, const Promise& promise) {
  int fd = *scope.file;
  auto done = fs_callback(op, scope, promise);
  runtime_.close(fd, [this, fd, done](const std::string& error) {
    open_files_.erase(fd);
    done(error);
  });
}

// Promise.resolve().then(cb).then(next)...: the promise of the last link.
Promise Player::start_chain(const Op& op, const Scope& scope) {
  Promise link = promises_.resolved();
  for (const Op* current = &op;; current = &current->next.front()) {
    link = promises_.then(link, [this, current, scope] {
      callback(*current, scope);
      return current->returns_promise ? promises_.resolved() : Promise();
    });
    if (current->next.empty()) return link;
  }
}

void Player::start_before_exit(const Op& op, const Scope& scope) {
  auto calls = std::make_shared<int>(0);
  auto id = std::make_shared<std::uint64_t>();
  *id = runtime_.on_before_exit([this, &op, scope, calls, id] {
    if (++*calls == op.count) runtime_.off_before_exit(*id);
    callback(op, scope);
  });
}

// Promise.resolve(thenable): a job calls its `then` (the label), whose resolve() queues the
// reaction (the ops).
Promise Player::start_thenable(const Op& op, const Scope& scope, const Promise& promise) {
  runtime_.queue_microtask([this, &op, scope, promise] {
    last_ = &op;
    if (!op.log.empty()) printed_.push_back(op.log);
    runtime_.queue_microtask([this, &op, scope, promise] {
      play(op.then, scope);
      if (promise) promises_.fulfil(promise);
    });
  });
  return promise;
}

}  // namespace stallbench::loop
