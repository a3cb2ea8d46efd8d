// An ordering scenario: a JSON file describing nested scheduling operations with log labels, run
// on the runtime (run_scenario) or turned into the equivalent JavaScript for Node
// (to_javascript). The format, one object per file:
//
//   name          string, required          what `trace` prints
//   module        "cjs" | "esm", required   how the main body is evaluated
//   program       array of ops, required    the main body
//   analysis      string                    why the scenario is there, what it shows
//   seed          string                    where the example comes from
//   expect        array of orders           the orders that are right (several when the order is
//                                           a race); an order is an array of log labels
//   expectByLine  {"18": [orders], ...}     the orders that are right on a Node line where they
//                                           differ from `expect`
//   runs          integer 1-1000            how many runs `trace` makes by default (for races)
//
// An op is an object with `op` and, by op (every op but log, busy and the clears takes `log`, the
// label printed when its callback runs, and `then`, the ops run inside that callback):
//
//   log              text (required): printed at once
//   nextTick, queueMicrotask, socketClose, reject
//                    socketClose: a socket destroyed at once, its 'close' (close phase); reject: a
//                    promise rejected with no handler, its 'unhandledRejection'
//   promise          returns ("value" | "promise"), next: Promise.resolve().then(cb); returns
//                    "promise": cb returns a resolved promise (two extra microtask hops); next: a
//                    chained .then, an object with log, then, returns and next
//   await            on (an op), toplevel: an async function's rest after `await` (of null, or of
//                    the promise of `on`: settled when its callback has run); toplevel: an ES
//                    module's top-level await, its last op
//   setTimeout       ms (required, 0-10000), name, unref
//   setInterval      ms (required, 0-10000), count (required, 1-1000), name, unref: clears itself
//                    after `count` ticks
//   setImmediate     name
//   clearTimeout, clearInterval, clearImmediate   name (required): of an op scheduled with it
//   readFile, stat, open   path (default: the scenario file; relative to its folder), error
//   writeFile        path (required: a file name in a temporary folder), bytes (0-16 MiB), error
//   close            inside an open's `then`: closes that file
//   lookup           host (default "localhost"; only names in /etc/hosts)
//   promiseAll, promiseRace   of (required, ops): Promise.all / race over the ops' promises
//   beforeExit       count (1-100, default 1): a 'beforeExit' listener, removed after `count` calls
//   busy             ms (required, 0-10000) of synchronous work; log printed after it
//   exit             process.on('exit'): its callback when the process ends (what it queues never runs)
//   uncaughtException  process.on('uncaughtException'): its callback for each exception thrown
//   throw            text: `throw new Error(text)`, the last op of a callback's ops (not of a
//                    promise's: that would be a rejection); with no uncaughtException the process ends
//   reject           name, handled: a rejected promise; `catch` (name) attaches a handler to it
//                    later; handled: {log, then}, the 'rejectionHandled' call when that is after
//                    its 'unhandledRejection'
//   catch            name (required, of a reject): rejected.catch(cb)
//   listen           net.createServer().listen(0, "127.0.0.1", cb): 'listening', then the server closes
//   thenable         Promise.resolve({then(resolve) {log; resolve();}}).then(() => {then ops})
//
// nextTick, queueMicrotask, setImmediate and setTimeout take `repeat` (1-1000): the callback
// schedules itself again after its ops until it has run that often, each call printing its label
// and number ("spin 3"); setTimeout, setInterval and setImmediate take `args` (strings): the
// callback's arguments, printed after its label.
//
// `error` ("ENOENT") is the error the fs call must call back with (the path must then be missing);
// without it the call must succeed. A name is given once per scenario.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime.h"

namespace stallbench::loop {

enum class OpKind {
  log, next_tick, promise, queue_microtask, set_timeout, set_immediate, set_interval, clear_timeout,
  clear_interval, clear_immediate, read_file, stat, open, close, write_file, lookup, socket_close,
  promise_all, promise_race, before_exit, reject, busy, await_null, exit, uncaught_exception, throw_error,
  catch_rejection, listen, thenable
};

struct Op {
  OpKind kind;
  std::string where;  // its JSON path in the file, e.g. $.program[2].then[0]
  std::string log;    // printed when its callback runs; a `log` op's text
  double ms = 0;
  int count = 0;
  std::string name;   // setTimeout, setInterval, setImmediate: for a clear; the clears: whose
  bool unref = false;
  std::string path;   // readFile, stat, open: absolute; writeFile: relative to the temporary folder
  std::string host;   // lookup
  std::string error;  // fs calls: the error code they must call back with, or ""
  std::size_t bytes = 0;         // writeFile
  bool returns_promise = false;  // promise, and its `next`
  bool toplevel = false;         // await
  std::vector<Op> then;
  std::vector<Op> next;  // promise: at most one, a chained .then (kind promise)
  std::vector<Op> on;    // await: at most one
  std::vector<Op> of;    // promiseAll, promiseRace
  std::vector<Op> handled;        // reject: at most one, the 'rejectionHandled' listener's call
  int repeat = 1;                 // a callback that schedules itself again until it has run this often
  std::vector<std::string> args;  // timer and immediate arguments, printed after the label

  // The label a call prints: `log`, its arguments, and with `repeat` the call's number (1-based).
  std::string label(int call) const;
};

using Order = std::vector<std::string>;

// Calls f on each op `op` holds: those it waits for (`on`, `of`), its callback's (`then`) and its
// chained .then (`next`).
template <typename F>
void for_each_child(const Op& op, F&& f) {
  for (const auto* list : {&op.on, &op.of, &op.then, &op.next, &op.handled})
    for (const auto& child : *list) f(child);
}

// Whether `op`, or any op it holds at any depth, satisfies `predicate`.
inline bool any_op(const Op& op, const std::function<bool(const Op&)>& predicate) {
  bool found = predicate(op);
  for_each_child(op, [&](const Op& child) { found = found || any_op(child, predicate); });
  return found;
}

inline bool any_op(const std::vector<Op>& ops, const std::function<bool(const Op&)>& predicate) {
  return std::any_of(ops.begin(), ops.end(), [&](const Op& op) { return any_op(op, predicate); });
}

inline bool uses(const std::vector<Op>& ops, OpKind kind) {
  return any_op(ops, [kind](const Op& op) { return op.kind == kind; });
}

struct Scenario {
  std::string file;  // absolute path it was loaded from
  std::string name;
  ModuleKind module = ModuleKind::commonjs;
  std::vector<Op> program;
  std::string analysis;
  std::string seed;
  std::vector<Order> expect;
  std::map<int, std::vector<Order>> expect_by_line;
  int runs = 1;
  double min_run_ms = 0;  // what its timers and busy work take at least, per run

  // The orders that are right on `line` (empty: the scenario says nothing).
  const std::vector<Order>& expected_on(int line) const;
};

// Bad input: the message is one line naming the file and the JSON path of what is wrong, and
// what would be valid.
struct ScenarioError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Every run must be able to end within this (what the scenario's timers and busy work take at
// least); stallbench_trace stops a run still going this long beyond them (tools/run_limit.h: an
// op waiting on a FIFO nobody writes); a run under Node is stopped after twice as long.
constexpr double kRunLimitMs = 30'000;

Scenario load_scenario(const std::string& path);  // throws ScenarioError

const char* op_name(OpKind kind);  // as spelled in the file
const char* module_name(ModuleKind kind);

// How the runtime is set up for a scenario's runs.
struct ModelSettings {
  int line = newest_modelled_line();
  // Node's start-up tail (Runtime::set_startup_tail), one per run in turn; empty: none.
  std::vector<double> startup_tail_ms;
  // On a line where a handled throw's queues drain at one of two points (ThrownQueues::either):
  // the branch of each run, in turn (every tail meets every branch); empty: the runtime's.
  std::vector<ThrownQueues> thrown_queues;
};

// A run that failed: one line naming the scenario and the op whose callback ran last (where it
// failed, or just before), then what went wrong (an fs call that did not end as declared, or a
// fault of the model's own).
struct ScenarioRunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Run `run` (0-based) on a fresh Runtime, with that run's start-up tail and branch from `settings`:
// the labels in the order they were printed; throws ScenarioRunError.
Order run_scenario(const Scenario& scenario, const ModelSettings& settings = {}, int run = 0);

// The same, with what the machine added: the longest the loop was held up or a pool request took
// (Runtime::longest_stall_ms).
struct ScenarioRun {
  Order order;
  double longest_stall_ms;
};
ScenarioRun run_scenario_measured(const Scenario& scenario, const ModelSettings& settings = {}, int run = 0);

// `runs` runs, each started at a random point of the millisecond (as separate Node processes
// are): the distinct orders, in order of first appearance, with how many runs gave each.
// `before_run(i)` is called as run i (0-based) starts: where a caller bounds each run.
struct OrderCount {
  Order order;
  int count;
};
std::vector<OrderCount> run_scenario_times(const Scenario& scenario, const ModelSettings& settings, int runs,
                                           const std::function<void(int)>& before_run = nullptr);

// The same program as a Node script (CommonJS or ES module, as declared) that prints the labels
// as one JSON array when the process exits.
std::string to_javascript(const Scenario& scenario);

// Whether what Node spends between the main module and its loop's first timers check (its start-up
// tail, Runtime::set_startup_tail) can change the scenario's order on `model`'s line: the main
// module (and the ticks and microtasks it queues) leaves a timer or a pool request pending when the
// loop starts, and how long the start took decides whether it is due, or done, in the first
// iteration. Never on a line that reads an ES module entry on the pool: the body runs in the loop.
bool starts_before_loop(const Scenario& scenario, const NodeLineModel& model);

// Whether the scenario can take both branches of a line where a handled throw's queues drain at
// one of two points (ThrownQueues::either): it throws and listens for 'uncaughtException'. Its
// runs then take both in turn (ModelSettings::thrown_queues): the orders it can take, not their
// odds, which nothing in the model decides.
bool throw_race(const Scenario& scenario, const NodeLineModel& model);
// The branches such a scenario's runs take in turn (ModelSettings::thrown_queues).
inline const std::vector<ThrownQueues> kThrowRaceBranches = {ThrownQueues::next_callback, ThrownQueues::drained_in_poll};

}  // namespace stallbench::loop
