#include "web_metrics.h"

#include <algorithm>
#include <numeric>

namespace stallbench::browser {

double total_blocking_time(const std::vector<Span>& tasks) {
  double total = 0;
  for (const auto& t : tasks) total += std::max(0.0, t.duration - kLongTaskMs);
  return total;
}

std::vector<Span> frame_gap_long_tasks(const std::vector<double>& frames, double interval) {
  std::vector<Span> tasks;
  for (std::size_t i = 1; i < frames.size(); ++i)
    if (double held = frames[i] - frames[i - 1] - interval / 2; held >= kLongTaskMs)
      tasks.push_back({frames[i - 1] + interval / 2, held});
  return tasks;
}

int inp_index(const std::vector<double>& durations) {
  if (durations.empty()) return -1;
  std::vector<int> order(durations.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return durations[a] > durations[b]; });
  return order[std::min(durations.size() / 50, durations.size() - 1)];
}

InputDelivery input_delivery(const std::vector<double>& sent, const std::vector<double>& arrived,
                             double work_start, double work_end, double click_ms) {
  InputDelivery d;
  for (std::size_t i = 0; i < sent.size() && i < arrived.size(); ++i) {
    double lag = arrived[i] - sent[i];
    d.lag_max_ms = std::max(d.lag_max_ms, lag);
    bool sent_during_work = sent[i] >= work_start && sent[i] <= work_end;
    if (sent_during_work && arrived[i] > work_end && lag > click_ms) ++d.backlogged;
  }
  return d;
}

}  // namespace stallbench::browser
