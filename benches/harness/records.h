// The repetition records: how the harness tells the orchestrator what each repetition measured.
// One JSON object per line on the descriptor given as --stallbench-records-fd (none: no records,
// as when a bench binary is run by hand), flushed as each repetition starts and ends:
//
//   {"protocol": 3, "event": "start", "rep": 0}
//   {"protocol": 3, "event": "end", "rep": 0, "status": "ok", "detail": "", "wall_ms": 812.9,
//    "callgrind_dump": "stallbench-rep 0",
//    "values": [{"metric": "pbkdf2_done_ms", "index": 3, "subcase": {}, "value": 812.5}, ...]}
//
// `start` restarts the orchestrator's per-repetition watchdog; `end` is the repetition's record:
// `status` ok or a failure status of the results CSV (`timeout`, `rejected`, `guarded`, `error`)
// with `detail` saying why and no values; `wall_ms` the time the repetition returned (null when it
// failed); `callgrind_dump` the label of the dump it made when run under callgrind; `index` is a
// value's place in a series (null for a single value); `subcase` the extra parameters its row
// carries. A record written survives the process dying later (Google Benchmark writes its own JSON,
// the raw artefact, only at the end). The shape is contract/protocol.schema.json's start_record and
// end_record; reader: scripts/stallbench_lib/convert.py (read_record).
#pragma once

#include <string>
#include <vector>

#include "harness.h"

namespace stallbench::bench {

std::string start_record(int repetition);
// A repetition that returned `wall_ms` with these values.
std::string end_record(int repetition, double wall_ms, const std::vector<Value>& values);
// A repetition that failed with `status` (not ok) and `detail`.
std::string failed_record(int repetition, const std::string& status, const std::string& detail);

// Writes one record line to `fd` (nothing when fd < 0); throws std::runtime_error when it cannot.
void write_record(int fd, const std::string& line);

}  // namespace stallbench::bench
