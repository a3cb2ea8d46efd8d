// Whether a scenario's order can depend on Node's start-up tail (scenario.h): whether its main
// module leaves a timer or a pool request pending when the loop starts. Read from the program, the
// same way for every scenario, annotated or not.
#include "scenario.h"

namespace stallbench::loop {
namespace {

bool starts_timer_or_pool_request(OpKind kind) {
  switch (kind) {
    case OpKind::set_timeout: case OpKind::set_interval: case OpKind::read_file: case OpKind::stat:
    case OpKind::open: case OpKind::close: case OpKind::write_file: case OpKind::lookup:
      return true;
    default:
      return false;
  }
}

bool pending_at_start(const std::vector<Op>& ops);

// Whether `op`'s callback runs before the loop starts when `op` is started before it: the tick and
// microtask queues (and the unhandled rejections) are drained before Node enters its loop.
bool runs_before_loop(const Op& op) {
  switch (op.kind) {
    case OpKind::next_tick: case OpKind::queue_microtask: case OpKind::promise: case OpKind::reject:
    case OpKind::thenable: case OpKind::listen:  // listen: two ticks
      return true;
    case OpKind::await_null:
      return op.on.empty() || runs_before_loop(op.on.front());
    case OpKind::promise_all:
      return std::all_of(op.of.begin(), op.of.end(), [](const Op& child) { return runs_before_loop(child); });
    case OpKind::promise_race:
      return std::any_of(op.of.begin(), op.of.end(), [](const Op& child) { return runs_before_loop(child); });
    default:
      return false;
  }
}

// Whether `op`, started before the loop, leaves a timer or a pool request pending when it starts.
bool pending_at_start(const Op& op) {
  if (starts_timer_or_pool_request(op.kind)) return true;
  if (pending_at_start(op.on) || pending_at_start(op.of)) return true;  // started along with it
  if (!runs_before_loop(op)) return false;                               // its callback runs in the loop
  if (pending_at_start(op.then)) return true;
  return std::any_of(op.next.begin(), op.next.end(), [](const Op& link) { return pending_at_start(link); });
}

bool pending_at_start(const std::vector<Op>& ops) {
  return std::any_of(ops.begin(), ops.end(), [](const Op& op) { return pending_at_start(op); });
}

}  // namespace

bool starts_before_loop(const Scenario& scenario, const NodeLineModel& model) {
  if (scenario.module == ModuleKind::esm && model.esm_entry == EsmEntry::read_on_pool) return false;
  return pending_at_start(scenario.program);
}

}  // namespace stallbench::loop
