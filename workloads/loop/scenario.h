// An ordering scenario: a JSON file describing nested scheduling operations with log labels, run
// on the runtime (run_scenario) or turned into the equivalent JavaScript for Node
// (to_javascript). The format, one object per file:
//
//   name      string, required          what `trace` prints
//   module    "cjs" | "esm", required   how the main body is evaluated
//   program   array of ops, required    the main body
//   analysis  string                    why the scenario is there, what it shows
//   seed      string                    where the example comes from
//   expect    array of orders           the orders that are right (several when the order is a
//                                       race); an order is an array of log labels
//   runs      integer 1-1000            how many runs `trace` makes by default (for races)
//
// An op is an object with `op` and, by op:
//
//   log              text (required): printed at once
//   nextTick, promise, queueMicrotask, setImmediate, await        log, then
//   setTimeout       ms (required, 0-10000), log, then
//   setInterval      ms (required, 0-10000), count (required, 1-1000): clears itself after
//                    `count` ticks; log and then run on every tick
//   readFile         path (default: the scenario file itself; relative to the scenario's folder)
//   lookup           host (default "localhost"; only names in /etc/hosts)
//   busy             ms (required, 0-10000) of synchronous work; log printed after it
//
// `log` is printed when the op's callback runs, `then` (a list of ops) runs inside the callback,
// after the log. `promise` is Promise.resolve().then(cb); `await` is the continuation of an
// async function after `await null` (one microtask); an async function's body before its first
// await is synchronous, so it is written as plain ops.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime.h"

namespace stallbench::loop {

enum class OpKind { log, next_tick, promise, queue_microtask, set_timeout, set_immediate, set_interval, read_file,
                    lookup, busy, await_null };

struct Op {
  OpKind kind;
  std::string where;  // its JSON path in the file, e.g. $.program[2].then[0]
  std::string log;    // printed when its callback runs; a `log` op's text
  double ms = 0;
  int count = 0;
  std::string path;   // readFile: absolute
  std::string host;   // lookup
  std::vector<Op> then;
};

struct Scenario {
  std::string file;  // absolute path it was loaded from
  std::string name;
  ModuleKind module = ModuleKind::commonjs;
  std::vector<Op> program;
  std::string analysis;
  std::string seed;
  std::vector<std::vector<std::string>> expect;
  int runs = 1;
};

// Bad input: the message is one line naming the file and the JSON path of what is wrong, and
// what would be valid.
struct ScenarioError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

Scenario load_scenario(const std::string& path);  // throws ScenarioError

const char* op_name(OpKind kind);  // as spelled in the file
const char* module_name(ModuleKind kind);

// One run on a fresh Runtime: the labels in the order they were printed. A failing callback (a
// file that vanished since loading) throws std::runtime_error naming the op.
std::vector<std::string> run_scenario(const Scenario& scenario);

// The same program as a Node script (CommonJS or ES module, as declared) that prints the labels
// as one JSON array when the process exits.
std::string to_javascript(const Scenario& scenario);

}  // namespace stallbench::loop
