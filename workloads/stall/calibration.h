// Calibrating the instruments against stalls of known length: busy-waits of `stall_ms` injected
// on the loop at intervals that do not line up with the monitor's timer, each timed by itself,
// and compared with what the exact meter and the delay monitor report. Also the instruments' own
// cost: the loop thread's CPU time over an idle stretch with and without them.
#pragma once

#include <vector>

#include "../common/summary.h"

namespace stallbench {

struct Calibration {
  std::vector<double> injected_ms;  // each busy-wait's own wall time (preemption included)
  std::vector<double> sized_ms;     // the exact meter's span that covers it, same order
  Summary monitor;                  // the delay monitor over the same window
};

// Spins for `stall_ms`, `stalls` times, `gap_ms` apart, on a loop of its own under the delay
// monitor and the exact meter.
Calibration calibrate_meters(double stall_ms, int stalls, double resolution_ms, double gap_ms = 47);

// The instruments' CPU cost on an idle loop, as a fraction of wall time: (loop-thread CPU with
// the instruments running - without) / wall, each over `seconds` of an otherwise idle loop.
double instruments_idle_cost(double resolution_ms, double seconds);

// Busy-waits on the calling thread for `ms` (the stand-in for a synchronous computation);
// returns the wall time it actually took.
double spin_ms(double ms);

}  // namespace stallbench
