// One measured page run (pages/long_task.js) as the driver returns it, and what the family reports
// about it. Times are the page's performance.now() in ms; the summary's series are relative to
// the window's start.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stallbench::browser {

struct PageRequest {
  std::string work;      // "report" | "parse"
  std::uint64_t size = 0;  // rows of the report; the parse's payload is `payload`
  std::string payload;   // the parse's payload file
  std::string strategy;  // inline, timeout, message-channel, idle-callback, yield, post-task, worker
  std::uint64_t chunk = 0;  // rows or records per chunk; 0 unchunked
  int click_ms = 50;     // one click every click_ms
  int lead_ms = 200;     // window before the work starts, and after it ends
  double limit_s = 60;   // the page run's time limit
  nlohmann::json to_json() const;
};

struct Span {
  double at = 0, duration = 0;
};

struct PageClick {
  double at = 0;              // the input event's timestamp: when the click happened
  double start = 0, end = 0;  // the page's listener ran from start to end
};

struct TimedEvent {  // an Event Timing entry for a click (only those that took >= 16 ms)
  double at = 0, start = 0, end = 0, duration = 0;
};

struct PageRun {
  double window_start = 0, work_start = 0, work_end = 0, window_end = 0;
  nlohmann::json answer;
  std::vector<double> frames;   // when each requestAnimationFrame callback ran, inside the window
  std::vector<double> chunks;   // how long each chunk held the main thread
  std::vector<PageClick> clicks;  // every click since the page loaded
  std::vector<TimedEvent> events;
  std::vector<Span> longtasks, loafs;  // since the page loaded
  int clicks_sent = 0;
};

// Throws std::runtime_error with the driver's own message when it reports an error, or naming
// what is missing when the answer is malformed.
PageRun parse_page_run(const nlohmann::json& reply);

struct ClickTiming {
  double at = 0;          // relative to the window's start
  double delay = 0;       // from the input to its listener starting (Event Timing when it has the click)
  double processing = 0;  // the listener's run
  double duration = -1;   // Event Timing: input to the next paint; -1 when under its 16 ms floor
};

struct PageSummary {
  double total_ms = 0;           // the work, start to answer
  int frames = 0;                // rendering steps that ran while the work was going on
  double frame_rate_hz = 0;      // frames / total time
  double frame_gap_max_ms = 0;   // longest gap between two frames in the window
  int longtasks = 0, loafs = 0;  // in the window
  double longtask_max_ms = 0, loaf_max_ms = 0;
  int chunks = 0;
  double chunk_max_ms = 0;
  std::vector<ClickTiming> clicks;  // those in the window
  double input_delay_max_ms = 0, input_delay_p50_ms = 0, processing_max_ms = 0;
  double interaction_max_ms = -1;  // the longest Event Timing duration of a click; -1: none reported
  // The timeline, relative to the window's start.
  double work_start_ms = 0, work_end_ms = 0;
  std::vector<double> frame_at_ms;
  std::vector<Span> longtask_spans;
};

// Throws std::runtime_error when a click the driver sent was never handled.
PageSummary summarize_page(const PageRun& run);

}  // namespace stallbench::browser
