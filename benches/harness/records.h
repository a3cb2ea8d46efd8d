// The repetition records: how the harness tells the orchestrator what each repetition measured.
// One JSON object per line on the descriptor given as --stallbench-records-fd (none: no records,
// as when a bench binary is run by hand), flushed as each repetition starts and ends:
//
//   {"version": 1, "event": "start", "rep": 0}
//   {"version": 1, "event": "end", "rep": 0, "status": "ok", "detail": "",
//    "values": [{"metric": "pbkdf2_done_ms", "index": 3, "subcase": {}, "value": 812.5}, ...]}
//
// `start` restarts the orchestrator's per-repetition watchdog; `end` is the repetition's record:
// `status` ok or a failure status of the results CSV (`timeout`, `rejected`, `guarded`, `error`)
// with `detail` saying why and no values; `index` is a value's place in a series (null for a single
// value); `subcase` the extra parameters its row carries. A record written survives the process
// dying later (Google Benchmark writes its own JSON, the raw artefact, only at the end). Reader:
// scripts/stallbench_lib/convert.py (read_record). A change of shape is a new version.
#pragma once

#include <string>
#include <vector>

#include "harness.h"

namespace stallbench::bench {

inline constexpr int kRecordVersion = 1;

std::string start_record(int repetition);
std::string end_record(int repetition, const std::vector<Value>& values, const std::string& status = "ok",
                       const std::string& detail = "");

// Writes one record line to `fd` (nothing when fd < 0); throws std::runtime_error when it cannot.
void write_record(int fd, const std::string& line);

}  // namespace stallbench::bench
