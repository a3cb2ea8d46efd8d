#include "measure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "../common/percentile.h"

namespace stallbench::regex {
namespace {

constexpr int kShortWarmUps = 3;  // V8 tiers a regex up to machine code after its first execution

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// The shared loop: `inputs` repeated `repeat` times per batch; per-unit time = batch ms / repeat.
MatchTiming timed_batches(Regex& regex, std::span<const std::string_view> inputs, Clock::time_point started,
                          const TimingPlan& plan, bool batch_small, std::size_t* matched_out) {
  double deadline = plan.budget_ms * (1 - plan.reserve);
  Batch warm = regex.run_batch(inputs, 1);
  MatchTiming timing{.matched = warm.matched > 0, .median_ms = warm.ms, .samples = 0};
  *matched_out = warm.matched;
  int repeat = 1;
  if (batch_small && warm.ms < plan.batch_ms)
    repeat = static_cast<int>(std::min(1e6, std::ceil(plan.batch_ms / std::max(warm.ms, 1e-6))));
  std::vector<double> samples;
  double per_unit = warm.ms;
  while (static_cast<int>(samples.size()) < plan.max_samples &&
         elapsed_ms(started) + per_unit * repeat <= deadline) {
    Batch batch = regex.run_batch(inputs, repeat);
    if (batch.matched != warm.matched * static_cast<std::size_t>(repeat))
      throw std::runtime_error("the engine's answer changed between repetitions of the same input");
    per_unit = batch.ms / repeat;
    samples.push_back(per_unit);
  }
  if (!samples.empty()) {
    timing.median_ms = median(samples);
    timing.samples = static_cast<int>(samples.size());
  }
  return timing;
}

}  // namespace

MatchTiming time_match(Regex& regex, std::string_view input, std::string_view short_input, Clock::time_point started,
                       const TimingPlan& plan) {
  std::string_view warm[] = {short_input};
  regex.run_batch(warm, kShortWarmUps);
  std::string_view one[] = {input};
  std::size_t matched = 0;
  return timed_batches(regex, one, started, plan, true, &matched);
}

MatchTiming time_lines(Regex& regex, std::span<const std::string_view> lines, Clock::time_point started,
                       const TimingPlan& plan, std::size_t* matching_lines) {
  return timed_batches(regex, lines, started, plan, false, matching_lines);
}

}  // namespace stallbench::regex
