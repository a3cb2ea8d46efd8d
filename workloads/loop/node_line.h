// The Node lines stallbench knows, one row each in node_line.cc: the release pinned from the npm
// registry and what changed between the lines that shows in the order callbacks run, each checked
// against the real binaries. This table is the one declaration of a Node line: the pins file
// (scripts/packages/npm/node-lines.txt) and the table in docs/starvation.md ("Per line") are
// generated from it (bench_starvation's `node_lines` table, --stallbench-describe), and
// tests/python/test_node_line_table.py fails while they differ (docs/adding-a-node-line.md).
//
// fs.readFile's reads: at most 512 KiB each; a file whose fstat size is 0 (empty, /proc) is read in
// 64 KiB requests until a read returns 0 bytes (lib/internal/fs/read/context.js).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace stallbench::loop {

enum class EsmEntry {
  read_on_pool,  // the loader awaits the file's read: the body runs from an I/O completion (poll)
  before_loop,   // loaded synchronously: the body runs before the loop starts, like CommonJS
};

enum class FsRequests {
  one_per_step,  // readFile: open, fstat, each read, close; writeFile: open, each write, close
  one_shot,      // one pool request per readFile (files up to 512 KiB, or size 0) and per writeFile
};

// Where the ticks and microtasks an exception left queued run, once an 'uncaughtException' listener
// has handled it (the drain stopped at the throw).
enum class ThrownQueues {
  drained_at_check,  // as the next check phase begins: CheckImmediate's RunAndClearNativeImmediates
                     // opens a callback scope every time, whose close drains them (up to Node 24)
  next_callback,     // after the next callback; Node's handler queues an empty immediate so that
                     // there is one (setImmediate(noop) in lib/internal/process/execution.js)
  either,           // after the next callback, or before it when V8 delivers a task of its own in a
                    // poll phase that comes first (Node runs each in a callback scope, whose close
                    // drains them): Node 26, where nothing else drains them sooner. Which one depends
                    // on timing (Node 26.12.1, idle machine, throws in a timer: drained first in 43
                    // of 60 runs of one program, 20 of 60 of another; a throw in an fs callback, with
                    // no poll phase before the check phase, 0 of 40; one in the main module's drain,
                    // 0 of 60): the model gives both orders, not their odds. A runtime takes one
                    // branch (Runtime::set_thrown_queues).
  drained_in_poll,  // the branch of `either` where V8's task comes: at the next poll phase
};

// processPromiseRejections (lib/internal/process/promises.js): which of the rejections pending when
// a report begins it reports, when an earlier listener of the same report handles a later one.
enum class RejectionReport {
  skips_handled,  // each is looked up in turn: one handled meanwhile is skipped (Node 18)
  all_pending,    // the pending ones are taken at once and all reported (Node 20 on)
};

struct NodeLineModel {
  int line;                 // 18, 20, ...
  std::string release;      // the release pinned from the npm registry: the newest of the line when pinned
  std::string libuv;        // the libuv the line bundles, major.minor
  bool timers_after_poll;   // libuv 1.45 and later
  EsmEntry esm_entry;
  FsRequests fs_requests;
  ThrownQueues thrown_queues;
  RejectionReport rejection_report;

  // What the model does on this line, one sentence per aspect: {timers_phase, ...}, {esm_entry,
  // ...}, {fs_requests, ...}, {after_uncaught, ...}, {rejection_report, ...}. The docs table's columns.
  std::vector<std::pair<std::string, std::string>> semantics() const;
  // The same sentences alone, for the trace header and meta.json.
  std::vector<std::string> describe() const;
};

const std::vector<int>& modelled_lines();  // oldest first
int newest_modelled_line();
std::string modelled_lines_text();  // "18, 20, ...", for messages naming what is valid
// Throws std::invalid_argument naming the modelled lines when `line` is not one of them.
const NodeLineModel& node_line_model(int line);

constexpr std::size_t kReadFileChunk = 512 * 1024;         // kReadFileBufferLength
constexpr std::size_t kReadFileUnknownChunk = 64 * 1024;   // kReadFileUnknownBufferLength

}  // namespace stallbench::loop
