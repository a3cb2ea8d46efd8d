// The player's dispatch (scenario_player.h): which queue each op's callback goes through.
#include <unistd.h>

#include "busy_wait.h"
#include "scenario_player.h"

namespace stallbench::loop {

Player::Player(Runtime& runtime, Order& printed, const Scenario& s)
    : runtime_(runtime), promises_(runtime), printed_(printed) {
  if (uses(s.program, OpKind::write_file)) folder_ = std::make_unique<TemporaryFolder>();
}

Player::~Player() {
  for (int fd : open_files_) ::close(fd);  // left open by the scenario, or by a failed run
}

void Player::play(const std::vector<Op>& ops, const Scope& scope) {
  for (const auto& op : ops) start(op, scope, false);
}

void Player::callback(const Op& op, const Scope& scope, int call) {
  last_ = &op;
  if (!op.log.empty()) printed_.push_back(op.label(call));
  play(op.then, scope);
}

Promise Player::start(const Op& op, const Scope& scope, bool awaited) {
  Promise promise = awaited ? promises_.pending() : nullptr;
  switch (op.kind) {
    case OpKind::log:
      printed_.push_back(op.log);
      return nullptr;
    case OpKind::busy:
      busy_wait(op.ms);
      if (!op.log.empty()) printed_.push_back(op.log);
      return nullptr;
    case OpKind::next_tick:
      return scheduled(op, scope, promise, [this](Callback cb) { runtime_.next_tick(std::move(cb)); });
    case OpKind::queue_microtask:
      return scheduled(op, scope, promise, [this](Callback cb) { runtime_.queue_microtask(std::move(cb)); });
    case OpKind::set_immediate: case OpKind::set_timeout: case OpKind::set_interval:
    case OpKind::clear_timeout: case OpKind::clear_interval: case OpKind::clear_immediate:
    case OpKind::socket_close: case OpKind::listen: case OpKind::before_exit:
      return start_loop_op(op, scope, promise);
    case OpKind::read_file: case OpKind::stat: case OpKind::open: case OpKind::close:
    case OpKind::write_file: case OpKind::lookup:
      return start_fs_op(op, scope, promise);
    case OpKind::reject: case OpKind::catch_rejection: case OpKind::exit: case OpKind::uncaught_exception:
      return start_listener(op, scope);
    case OpKind::throw_error:
      throw Runtime::Thrown(op.log);
    case OpKind::promise:
      return start_chain(op, scope);
    case OpKind::thenable:
      return start_thenable(op, scope, promise);
    case OpKind::await_null: {
      Promise awaited_promise = op.on.empty() ? promises_.resolved() : start(op.on.front(), scope, true);
      return promises_.then(awaited_promise, [this, &op, scope] { return plain_callback(op, scope); });
    }
    case OpKind::promise_all:
    case OpKind::promise_race: {
      std::vector<Promise> children;
      for (const auto& child : op.of) children.push_back(start(child, scope, true));
      Promise combined = op.kind == OpKind::promise_all ? promises_.all(children) : promises_.race(children);
      return promises_.then(combined, [this, &op, scope] { return plain_callback(op, scope); });
    }
  }
  return nullptr;
}

Promise Player::start_loop_op(const Op& op, const Scope& scope, const Promise& promise) {
  switch (op.kind) {
    case OpKind::set_immediate:
      return scheduled(op, scope, promise, [this, &op](Callback cb) {
        ImmediateId id = runtime_.set_immediate(std::move(cb));
        if (!op.name.empty()) immediates_[op.name] = id;
      });
    case OpKind::set_timeout:
      return scheduled(op, scope, promise, [this, &op](Callback cb) { name_timer(op, runtime_.set_timeout(std::move(cb), op.ms)); });
    case OpKind::set_interval:
      start_interval(op, scope);
      return nullptr;
    case OpKind::clear_timeout:
    case OpKind::clear_interval:
      if (auto found = timers_.find(op.name); found != timers_.end()) runtime_.clear_timer(found->second);
      return nullptr;
    case OpKind::clear_immediate:
      if (auto found = immediates_.find(op.name); found != immediates_.end()) runtime_.clear_immediate(found->second);
      return nullptr;
    case OpKind::socket_close:
      runtime_.close_socket(settling(op, scope, promise));
      return promise;
    case OpKind::listen:
      runtime_.listen(settling(op, scope, promise));
      return promise;
    case OpKind::before_exit:
      start_before_exit(op, scope);
      return nullptr;
    default:
      return nullptr;
  }
}

Promise Player::start_fs_op(const Op& op, const Scope& scope, const Promise& promise) {
  switch (op.kind) {
    case OpKind::read_file: {
      auto done = fs_callback(op, scope, promise);
      runtime_.read_file(op.path, [done](const std::string&, const std::string& error) { done(error); });
      break;
    }
    case OpKind::stat:
      runtime_.stat(op.path, fs_callback(op, scope, promise));
      break;
    case OpKind::open:
      start_open(op, promise);
      break;
    case OpKind::close:
      start_close(op, scope, promise);
      break;
    case OpKind::write_file:
      runtime_.write_file((folder_->path() / op.path).string(), std::string(op.bytes, 'x'), fs_callback(op, scope, promise));
      break;
    case OpKind::lookup:
      runtime_.lookup(op.host, [&op, done = settling(op, scope, promise)](const std::string&, const std::string& error) {
        if (!error.empty()) throw std::runtime_error(op.where + ": lookup: " + error);
        done();
      });
      break;
    default:
      break;
  }
  return promise;
}

Promise Player::start_listener(const Op& op, const Scope& scope) {
  switch (op.kind) {
    case OpKind::reject: {
      Callback handled;
      if (!op.handled.empty()) handled = [this, &op, scope] { callback(op.handled.front(), scope); };
      Runtime::RejectionId id = runtime_.reject_unhandled(settling(op, scope, nullptr), std::move(handled));
      if (!op.name.empty()) rejections_[op.name] = id;
      break;
    }
    case OpKind::catch_rejection:
      if (auto found = rejections_.find(op.name); found != rejections_.end())
        runtime_.handle_rejection(found->second, settling(op, scope, nullptr));
      break;
    case OpKind::exit:
      runtime_.on_exit(settling(op, scope, nullptr));
      break;
    case OpKind::uncaught_exception:
      runtime_.on_uncaught_exception(settling(op, scope, nullptr));
      break;
    default:
      break;
  }
  return nullptr;
}

}  // namespace stallbench::loop
