// Where a parse runs relative to the loop under test (the `mode` parameter):
//
//   inline       on the loop, in one callback: the loop is blocked for the whole parse
//   pool         on libuv's thread pool; the answer comes back as an after-work callback
//   worker       on a dedicated worker thread started with the cell; the answer comes back
//                through a uv_async_t, as a worker's postMessage does
//   incremental  On-Demand array iterator kept across loop turns, `per_turn` records per turn,
//                yielding like `await setImmediate()` between turns
//   ndjson       the same records as NDJSON through iterate_many, `per_turn` documents per turn
#pragma once

#include <uv.h>

#include <string>
#include <vector>

#include "../stall/offload.h"
#include "../stall/stall_session.h"
#include "parser.h"
#include "payload.h"

namespace stallbench {

enum class ParseMode { inline_on_loop, pool, worker, incremental, ndjson };

const std::vector<std::string>& parse_mode_names();
ParseMode parse_mode(const std::string& name);  // throws std::invalid_argument
bool mode_steps(ParseMode mode);                 // incremental, ndjson: needs a stepper
Layout mode_layout(ParseMode mode);              // ndjson reads NDJSON, the others an array

struct ParseJob {
  uv_loop_t* loop;
  ParseMode mode;
  JsonParser* parser;
  const JsonText* json;
  RecordTask task;
  bool walk = false;              // walk the whole document (a user's file) instead of the task
  std::size_t per_turn = 0;       // incremental, ndjson
  WorkerPool* worker = nullptr;   // worker
  RecordAnswer answer;            // the parse's answer, once finished
  WalkAnswer walked;              // the same, for `walk`
  std::size_t turns = 0;          // loop turns the parse took (1 for the others)
};

// The parse as a StartWork, for StallSession::run or run_until_finished. `job` must outlive it.
StartWork start_parse(ParseJob& job);

}  // namespace stallbench
