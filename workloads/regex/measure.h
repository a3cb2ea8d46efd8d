// Timing one compiled pattern on one input within a time budget. The budget bounds the whole
// cell (the orchestrator kills a cell that overruns it), so the loop plans every step to end
// inside it: a few matches of a short input (so engines that compile lazily, like V8 which first
// interprets a regex and compiles it to machine code after its first run, are warm without
// paying a long interpreted match), one warm-up match of the input itself, then batches of
// matches while the next batch still fits.
#pragma once

#include <chrono>
#include <string_view>

#include "engine.h"

namespace stallbench::regex {

using Clock = std::chrono::steady_clock;

struct MatchTiming {
  bool matched = false;
  double median_ms = 0;  // per match: the median over the timed batches
  int samples = 0;       // timed batches after the warm-up; 0: the warm-up was the only match
                         // (too slow to repeat within the budget), and median_ms is that match
};

struct TimingPlan {
  double budget_ms = 1000;   // for everything the cell does from `started` on
  double reserve = 0.15;     // fraction of the budget kept free for reporting and exit
  double batch_ms = 0.5;     // a batch of fast matches lasts at least this long (timer resolution)
  int max_samples = 11;
};

// Throws EngineFailure from the engine, or std::runtime_error when the answer changes between
// batches (an engine that answers differently for the same input is broken).
MatchTiming time_match(Regex& regex, std::string_view input, std::string_view short_input, Clock::time_point started,
                       const TimingPlan& plan);

// Passes over `lines` (throughput): a warm-up pass, then up to plan.max_samples passes while they
// fit in plan.budget_ms; returns the matching-line count and the median pass time.
MatchTiming time_lines(Regex& regex, std::span<const std::string_view> lines, Clock::time_point started,
                       const TimingPlan& plan, std::size_t* matching_lines);

}  // namespace stallbench::regex
