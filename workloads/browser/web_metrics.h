// The web metrics every page measurement of the family computes, from what a page observed:
// Total Blocking Time from the best signal the browser gives, INP's choice of interaction, and
// whether the driver's input reached the page on time. Times in ms on the page's clock.
#pragma once

#include <string>
#include <vector>

namespace stallbench::browser {

struct Span {
  double at = 0, duration = 0;
};

constexpr double kLongTaskMs = 50;

// Total Blocking Time over long tasks: the sum of each one's time beyond 50 ms (Lighthouse).
double total_blocking_time(const std::vector<Span>& tasks);

// Long tasks as the gaps between frames (requestAnimationFrame callbacks) show them, in any
// browser. In a gap that a task held, the earlier frame ran, then the rest of its frame was free
// until the task started (anywhere in the next frame interval: half an interval on average), and
// the later frame ran as soon as the task ended (a frame was overdue). So the task is estimated as
// the gap less half the page's frame interval (`interval`, the median gap), from half an interval
// after the earlier frame; a task of 50 ms or more counts. Each task is known to within half an
// interval either way; tasks back to back with no frame between them count as one.
std::vector<Span> frame_gap_long_tasks(const std::vector<double>& frames, double interval);

// Where TBT comes from: the browser's longtask entries (its own task times, what Lighthouse reads
// from a trace) where it reports them, else the frame gaps. The names are the browsers table's
// `tbt_signal` words.
inline const std::string kTbtFromLongtasks = "longtask entries";
inline const std::string kTbtFromFrames = "frame gaps";

// The index of INP's interaction as web-vitals chooses it: the longest, except that one
// interaction in 50 is ignored (the 98th percentile for pages with many); -1 when there is none.
int inp_index(const std::vector<double>& durations);

// Whether the driver's input reached the page when it was sent. A click's input delay runs from
// its event's own timestamp (when the browser received it), so a late delivery does not inflate
// it; but clicks sent while the work ran that reached the page only after it ended, in a burst
// behind each other, never sampled the work: that repetition's input delay is not the page's.
struct InputDelivery {
  double lag_max_ms = 0;  // the longest from a click's send to its event's timestamp
  int backlogged = 0;     // clicks sent during the work that arrived after it, over click_ms late
};
// `sent` and `arrived` are each click's send time and event timestamp (the same clicks, in order).
InputDelivery input_delivery(const std::vector<double>& sent, const std::vector<double>& arrived,
                             double work_start, double work_end, double click_ms);

}  // namespace stallbench::browser
