// The calibration knob: STALLBENCH_INJECT_WORK=FAMILY/BENCH:PCT makes one benchmark do PCT% more
// real work by scaling the parameters it declares as `work` (iterations, bytes) before its
// scenario is built. `stallbench calibrate` sets it for its B runs to check that `compare`
// flags a slowdown of a known size. The cell keeps its declared values in its name and rows, so
// the B run's cells line up with the A run's.
#pragma once

#include <optional>
#include <string>

#include "harness.h"

namespace stallbench::bench {

inline constexpr const char* kInjectWorkVariable = "STALLBENCH_INJECT_WORK";

// The percentage to add to `benchmark` of `family`, when the variable names it. Throws
// std::invalid_argument when the variable is set but malformed.
std::optional<double> injected_work_pct(const std::string& family, const std::string& benchmark);

// `cell` with every `work` parameter of `b` scaled by 1 + pct/100 (rounded, at least +1 when
// pct > 0). Throws std::invalid_argument when `b` declares no work parameter or a scaled value
// leaves its range.
Cell with_injected_work(const Benchmark& b, const Cell& cell, double pct);

}  // namespace stallbench::bench
