// One repetition of a parse measurement: a fresh parser parses the document once in the job's
// mode with nothing else measured (allocation and page faults included, and the resident memory
// it adds), then the same parser parses it again inside a measured window (the steady state the
// stall instruments and the /health probe see), then one memcpy of the same bytes gives the
// floor. The answers are left in the jobs for the caller to check.
#pragma once

#include <vector>

#include "parse_modes.h"

namespace stallbench {

struct ParseTrial {
  ParseJob first;         // the fresh parser's parse, with its answer
  double first_ms = 0;
  double rss_growth_mb = 0;
  ParseJob steady;        // the reused parser's parse, with its answer
  SessionRecord window;   // what was measured during it
  double floor_ms = 0;    // the memcpy
};

// `job` gives the loop, mode, document and task (its parser is ignored). Throws ParseError when
// the parser refuses the document.
ParseTrial run_parse_trial(StallSession& session, const ParserEntry& entry, const ParseJob& job,
                           std::vector<char>& memcpy_target);

}  // namespace stallbench
