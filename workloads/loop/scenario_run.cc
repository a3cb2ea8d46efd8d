// Playing a scenario on the runtime: each op schedules its callback through the queue it names;
// the callback prints the op's label and plays its children.
#include <memory>

#include "busy_wait.h"
#include "scenario.h"

namespace stallbench::loop {
namespace {

class Player {
 public:
  Player(Runtime& runtime, std::vector<std::string>& printed) : runtime_(runtime), printed_(printed) {}

  void play(const std::vector<Op>& ops) {
    for (const auto& op : ops) start(op);
  }

 private:
  void callback(const Op& op) {
    if (!op.log.empty()) printed_.push_back(op.log);
    play(op.then);
  }

  void start(const Op& op) {
    auto run = [this, &op] { callback(op); };
    switch (op.kind) {
      case OpKind::log:
        printed_.push_back(op.log);
        break;
      case OpKind::next_tick:
        runtime_.next_tick(run);
        break;
      case OpKind::promise:          // Promise.resolve().then(cb)
      case OpKind::queue_microtask:
      case OpKind::await_null:       // the rest of an async function after `await null`
        runtime_.queue_microtask(run);
        break;
      case OpKind::set_timeout:
        runtime_.set_timeout(run, op.ms);
        break;
      case OpKind::set_immediate:
        runtime_.set_immediate(run);
        break;
      case OpKind::set_interval: {
        auto id = std::make_shared<TimerId>();
        auto ticks = std::make_shared<int>(0);
        *id = runtime_.set_interval([this, &op, id, ticks] {
          if (++*ticks == op.count) runtime_.clear_timer(*id);
          callback(op);
        }, op.ms);
        break;
      }
      case OpKind::read_file:
        runtime_.read_file(op.path, [this, &op](std::string, std::string error) {
          if (!error.empty()) throw std::runtime_error(op.where + ": readFile: " + error);
          callback(op);
        });
        break;
      case OpKind::lookup:
        runtime_.lookup(op.host, [this, &op](std::string, std::string error) {
          if (!error.empty()) throw std::runtime_error(op.where + ": lookup: " + error);
          callback(op);
        });
        break;
      case OpKind::busy:
        busy_wait(op.ms);
        if (!op.log.empty()) printed_.push_back(op.log);
        break;
    }
  }

  Runtime& runtime_;
  std::vector<std::string>& printed_;
};

}  // namespace

std::vector<std::string> run_scenario(const Scenario& scenario) {
  std::vector<std::string> printed;
  Runtime runtime;
  Player player(runtime, printed);
  runtime.run_main(scenario.module, [&] { player.play(scenario.program); });
  return printed;
}

}  // namespace stallbench::loop
