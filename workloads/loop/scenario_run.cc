// Playing a scenario on the runtime: each op schedules its callback through the queue it names;
// the callback prints the op's label and plays its children. An op another op waits for (await's
// `on`, promiseAll's `of`) also has a promise, settled when its callback has run.
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <unordered_map>

#include "busy_wait.h"
#include "promise.h"
#include "scenario.h"
#include "temporary_folder.h"

namespace stallbench::loop {
namespace {

class Player {
 public:
  Player(Runtime& runtime, Order& printed, const Scenario& s)
      : runtime_(runtime), promises_(runtime), printed_(printed) {
    if (uses(s.program, OpKind::write_file)) folder_ = std::make_unique<TemporaryFolder>();
  }

  ~Player() {
    for (int fd : open_files_) ::close(fd);  // left open by the scenario, or by a failed run
  }

  void play(const std::vector<Op>& ops) { play(ops, {}); }

  // The op whose callback ran last: where a run that fails is reported.
  const Op* last_callback() const { return last_; }

 private:
  struct Scope {
    std::shared_ptr<const int> file;  // the file of the nearest open whose callback this is in
  };

  void play(const std::vector<Op>& ops, const Scope& scope) {
    for (const auto& op : ops) start(op, scope, false);
  }

  void callback(const Op& op, const Scope& scope, int call = 1) {
    last_ = &op;
    if (!op.log.empty()) printed_.push_back(op.label(call));
    play(op.then, scope);
  }

  // An op with `repeat`: its callback schedules itself again (`schedule`) after its ops until it
  // has run that often.
  void repeating(const Op& op, const Scope& scope, const std::function<void(Callback)>& schedule) {
    auto calls = std::make_shared<int>(0);
    auto again = std::make_shared<Callback>();
    *again = [this, &op, scope, schedule, calls, again] {
      callback(op, scope, ++*calls);
      if (*calls < op.repeat) schedule(*again);
    };
    schedule(*again);
  }

  // Schedules `op`'s callback with `schedule`: once, or again and again with `repeat`.
  Promise scheduled(const Op& op, const Scope& scope, const Promise& promise, const std::function<void(Callback)>& schedule) {
    if (op.repeat > 1) {
      repeating(op, scope, schedule);
    } else {
      schedule(settling(op, scope, promise));
    }
    return promise;
  }

  // A `then` callback that returns nothing.
  Promise plain_callback(const Op& op, const Scope& scope) {
    callback(op, scope);
    return nullptr;
  }

  // The op's callback, then its promise settled (when it has one).
  Callback settling(const Op& op, const Scope& scope, const Promise& promise) {
    return [this, &op, scope, promise] {
      callback(op, scope);
      if (promise) promises_.fulfil(promise);
    };
  }

  // An fs call must end as the scenario says: with its `error`, or without one.
  static void check_outcome(const Op& op, const std::string& error) {
    if (error == op.error) return;
    throw std::runtime_error(op.where + ": " + op_name(op.kind) + ": " +
                             (error.empty() ? "succeeded, but the scenario expects " + op.error : error));
  }

  std::function<void(std::string)> fs_callback(const Op& op, const Scope& scope, const Promise& promise) {
    return [&op, done = settling(op, scope, promise)](const std::string& error) {
      check_outcome(op, error);
      done();
    };
  }

  // Schedules `op`; returns its promise when `awaited` (nullptr otherwise, and for ops that have
  // none of their own).
  Promise start(const Op& op, const Scope& scope, bool awaited) {
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
      case OpKind::read_file: {
        auto done = fs_callback(op, scope, promise);
        runtime_.read_file(op.path, [done](const std::string&, const std::string& error) { done(error); });
        return promise;
      }
      case OpKind::stat:
        runtime_.stat(op.path, fs_callback(op, scope, promise));
        return promise;
      case OpKind::open:
        start_open(op, promise);
        return promise;
      case OpKind::close: {
        int fd = *scope.file;
        auto done = fs_callback(op, scope, promise);
        runtime_.close(fd, [this, fd, done](const std::string& error) {
          open_files_.erase(fd);
          done(error);
        });
        return promise;
      }
      case OpKind::write_file:
        runtime_.write_file((folder_->path() / op.path).string(), std::string(op.bytes, 'x'), fs_callback(op, scope, promise));
        return promise;
      case OpKind::lookup:
        runtime_.lookup(op.host, [&op, done = settling(op, scope, promise)](const std::string&, const std::string& error) {
          if (!error.empty()) throw std::runtime_error(op.where + ": lookup: " + error);
          done();
        });
        return promise;
      case OpKind::socket_close:
        runtime_.close_socket(settling(op, scope, promise));
        return promise;
      case OpKind::promise:
        return start_chain(op, scope);
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
      case OpKind::before_exit:
        start_before_exit(op, scope);
        return nullptr;
      case OpKind::reject: {
        Callback handled;
        if (!op.handled.empty()) handled = [this, &op, scope] { callback(op.handled.front(), scope); };
        Runtime::RejectionId id = runtime_.reject_unhandled(settling(op, scope, nullptr), std::move(handled));
        if (!op.name.empty()) rejections_[op.name] = id;
        return nullptr;
      }
      case OpKind::catch_rejection:
        if (auto found = rejections_.find(op.name); found != rejections_.end())
          runtime_.handle_rejection(found->second, settling(op, scope, nullptr));
        return nullptr;
      case OpKind::exit:
        runtime_.on_exit(settling(op, scope, nullptr));
        return nullptr;
      case OpKind::uncaught_exception:
        runtime_.on_uncaught_exception(settling(op, scope, nullptr));
        return nullptr;
      case OpKind::throw_error:
        throw Runtime::Thrown(op.log);
      case OpKind::listen:
        runtime_.listen(settling(op, scope, promise));
        return promise;
      case OpKind::thenable:
        // Promise.resolve(thenable): a job calls its `then` (the label), whose resolve() queues
        // the reaction (the ops).
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
    return nullptr;
  }

  void name_timer(const Op& op, TimerId id) {
    if (op.unref) runtime_.unref_timer(id);
    if (!op.name.empty()) timers_[op.name] = id;
  }

  void start_interval(const Op& op, const Scope& scope) {
    auto id = std::make_shared<TimerId>();
    auto ticks = std::make_shared<int>(0);
    *id = runtime_.set_interval([this, &op, scope, id, ticks] {
      if (++*ticks == op.count) runtime_.clear_timer(*id);
      callback(op, scope);
    }, op.ms);
    name_timer(op, *id);
  }

  void start_open(const Op& op, const Promise& promise) {
    runtime_.open(op.path, [this, &op, promise](int fd, const std::string& error) {
      if (fd >= 0) open_files_.insert(fd);
      check_outcome(op, error);
      settling(op, Scope{fd >= 0 ? std::make_shared<const int>(fd) : nullptr}, promise)();
    });
  }

  // Promise.resolve().then(cb).then(next)...: the promise of the last link.
  Promise start_chain(const Op& op, const Scope& scope) {
    Promise link = promises_.resolved();
    for (const Op* current = &op;; current = &current->next.front()) {
      link = promises_.then(link, [this, current, scope] {
        callback(*current, scope);
        return current->returns_promise ? promises_.resolved() : Promise();
      });
      if (current->next.empty()) return link;
    }
  }

  void start_before_exit(const Op& op, const Scope& scope) {
    auto calls = std::make_shared<int>(0);
    auto id = std::make_shared<std::uint64_t>();
    *id = runtime_.on_before_exit([this, &op, scope, calls, id] {
      if (++*calls == op.count) runtime_.off_before_exit(*id);
      callback(op, scope);
    });
  }

  Runtime& runtime_;
  Promises promises_;
  Order& printed_;
  std::unique_ptr<TemporaryFolder> folder_;  // for writeFile ops
  std::unordered_map<std::string, TimerId> timers_;
  std::unordered_map<std::string, ImmediateId> immediates_;
  std::unordered_map<std::string, Runtime::RejectionId> rejections_;
  std::set<int> open_files_;
  const Op* last_ = nullptr;
};

// Waits for a random point of the current millisecond (or the next): a run's timers then start
// at a random distance from the clock's next tick, as they do in a fresh process.
void start_at_random_phase(std::mt19937_64& random) {
  std::uniform_int_distribution<std::uint64_t> phase(0, 999'999);
  std::uint64_t target = phase(random);
  std::uint64_t now = uv_hrtime();
  std::uint64_t wait = (target + 1'000'000 - now % 1'000'000) % 1'000'000;
  busy_wait(static_cast<double>(wait) / 1e6);
}

}  // namespace

Order run_scenario(const Scenario& scenario, const ModelSettings& settings, double startup_tail_ms) {
  Order printed;
  Runtime runtime(node_line_model(settings.line));
  runtime.set_startup_tail(startup_tail_ms);
  Player player(runtime, printed, scenario);
  try {
    runtime.run_main(scenario.module, [&] { player.play(scenario.program); }, scenario.file);
  } catch (const std::exception& e) {
    const Op* last = player.last_callback();
    throw ScenarioRunError(scenario.name + ": " +
                           (last ? std::string("in or after the callback of ") + last->where + " (" + op_name(last->kind) + ")"
                                 : std::string("in the main module")) +
                           ": " + e.what());
  }
  return printed;
}

std::vector<OrderCount> run_scenario_times(const Scenario& scenario, const ModelSettings& settings, int runs,
                                           const std::function<void(int)>& before_run) {
  std::vector<OrderCount> seen;  // in order of first appearance
  std::mt19937_64 random(std::random_device{}());
  for (int i = 0; i < runs; ++i) {
    if (before_run) before_run(i);
    const auto& tails = settings.startup_tail_ms;
    double tail = tails.empty() ? 0 : tails[static_cast<std::size_t>(i) % tails.size()];
    start_at_random_phase(random);
    Order order = run_scenario(scenario, settings, tail);
    auto found = std::find_if(seen.begin(), seen.end(), [&](const OrderCount& s) { return s.order == order; });
    if (found == seen.end()) {
      seen.push_back({std::move(order), 1});
    } else {
      ++found->count;
    }
  }
  return seen;
}

}  // namespace stallbench::loop
