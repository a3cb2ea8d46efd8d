// One measured page run (pages/long_task.js) as the driver returns it, and what the family reports
// about it. Times are the page's performance.now() in ms; the summary's series are relative to
// the window's start.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "web_metrics.h"

namespace stallbench::browser {

struct PageRequest {
  std::string work;      // "report" | "parse"
  std::string browser = "chromium";  // a BrowserKind's name (which driver runs it; not sent to it)
  std::uint64_t size = 0;  // rows of the report; the parse's payload is `payload`
  std::string payload;   // the parse's payload file
  std::string strategy;  // inline, timeout, message-channel, idle-callback, yield, post-task, worker
  std::uint64_t chunk = 0;  // rows or records per chunk; 0 unchunked
  int click_ms = 50;     // one click every click_ms
  int lead_ms = 200;     // window before the work starts, and after it ends
  double limit_s = 60;   // the page run's time limit
  nlohmann::json to_json() const;
};

struct PageClick {
  double at = 0;              // the input event's timestamp: when the click happened
  double start = 0, end = 0;  // the page's listener ran from start to end
};

struct TimedEvent {  // an Event Timing entry for a click (only those that took >= 16 ms)
  double at = 0, start = 0, end = 0, duration = 0;
};

// A long animation frame (Chromium only) and its longest script.
struct LoafScript {
  std::string invoker, invoker_type, file, function;  // invoker_type: one of kLoafInvokerTypes
  double char_position = -1, duration = 0, forced_layout = 0;
};
struct Loaf {
  double at = 0, duration = 0, blocking = 0;  // blockingDuration: the part that delayed input
  double render_start = 0, style_layout_start = 0;  // page times; 0 when the frame did not render
  bool has_script = false;
  LoafScript script;
};

// The LoAF spec's invokerType values, in the order the `loaf_script_invoker` series numbers them
// (the bench declares them as its `loaf_invokers` table).
const std::vector<std::string>& loaf_invoker_types();

// Thrown when the page lacks the API a strategy needs: the cell is `rejected`, with this reason.
struct PageRejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The `worker` strategy's job as the page timed it, on the page's clock (the worker's own times
// converted through both time origins): the main thread's postMessage call (the payload's
// transfer) from post_start to post_end, the worker's onmessage beginning (received) and its
// answer posted (replied), the answer's onmessage beginning on the main thread (answered).
struct WorkerTimes {
  double post_start = 0, post_end = 0, received = 0, replied = 0, answered = 0;
};

struct PageRun {
  double window_start = 0, work_start = 0, work_end = 0, window_end = 0;
  bool has_worker = false;  // only the worker strategy has these
  WorkerTimes worker;
  nlohmann::json answer;
  std::vector<double> frames;   // when each requestAnimationFrame callback ran, inside the window
  std::vector<double> chunks;   // how long each chunk held the main thread
  std::vector<PageClick> clicks;  // every click since the page loaded
  std::vector<double> sent_at;    // when the driver sent each click, on the page's clock (its lag and backlog)
  std::vector<TimedEvent> events;
  std::vector<Span> longtasks;  // since the page loaded
  std::vector<Loaf> loafs;
  bool has_longtasks = true, has_loafs = true;  // the browser reports these entry types
  int clicks_sent = 0;
  double click_ms = 0;  // the clicks' period, as the driver sent them
};

// Throws PageRejected when the page lacks the strategy's API, std::runtime_error with the driver's
// own message when it reports an error, or naming what is missing when the answer is malformed.
PageRun parse_page_run(const nlohmann::json& reply);

// A click as an interaction, in INP's three phases, which add up to its duration:
// input delay (input -> listener start) + processing (the listener) + presentation delay
// (listener end -> the next paint). The paint is Event Timing's (startTime + duration) where it
// has the click, else the next requestAnimationFrame callback after the listener: the rendering
// step's start, a lower bound, for clicks Event Timing leaves out (under 16 ms from the event's
// dispatch to the paint).
struct ClickTiming {
  double at = 0;            // the input, relative to the window's start
  double delay = 0;         // from the input to its listener starting (Event Timing when it has the click)
  double processing = 0;    // the listener's run
  double presentation = 0;  // from the listener's end to the next paint
  double interaction = 0;   // delay + processing + presentation
  double duration = -1;     // Event Timing's own duration; -1 when under its 16 ms floor
};

struct PageSummary {
  double total_ms = 0;           // the work, start to answer
  int frames = 0;                // rendering steps that ran while the work was going on
  double frame_rate_hz = 0;      // frames / total time
  double frame_gap_max_ms = 0;   // longest gap between two frames in the window
  int longtasks = 0, loafs = 0;  // in the window (when the browser reports them: has_*)
  double longtask_max_ms = 0, loaf_max_ms = 0;
  bool has_longtasks = true, has_loafs = true;
  double loaf_blocking_max_ms = 0, loaf_blocking_sum_ms = 0;
  std::vector<Loaf> loaf_list;  // in the window, times relative to it (render starts relative to the frame's start)
  double frame_interval_ms = 0;                 // the median gap between two frames in the window
  std::vector<Span> frame_longtask_spans;       // frame_gap_long_tasks, relative to the window
  double frame_longtask_max_ms = 0;
  double tbt_frames_ms = 0;                     // over frame_longtask_spans: any browser
  double tbt_ms = 0;                            // from the best signal: longtask entries, else frame gaps
  std::string tbt_signal;                       // kTbtFromLongtasks or kTbtFromFrames
  // INP and its phases; not reported (inp_ms -1) when the repetition's clicks were backlogged.
  double inp_ms = -1, inp_input_delay_ms = 0, inp_processing_ms = 0, inp_presentation_ms = 0;
  InputDelivery delivery;
  int chunks = 0;
  double chunk_max_ms = 0;
  // The worker strategy's phases (has_worker_phases), which add up to total_ms: start (the job's
  // start to the worker's onmessage: its module's load and the message's way in, which includes
  // the main thread's postMessage call, post_message), compute (the worker's job) and answer (the
  // worker's postMessage to the answer's onmessage on the main thread: the structured clone and the
  // main thread's queue), plus settle (that onmessage to the job's end: terminate and the promise).
  bool has_worker_phases = false;
  double worker_start_ms = 0, worker_post_message_ms = 0, worker_compute_ms = 0, worker_answer_ms = 0,
         worker_settle_ms = 0;
  std::vector<ClickTiming> clicks;  // those in the window
  double input_delay_max_ms = 0, input_delay_p50_ms = 0, processing_max_ms = 0;
  double interaction_max_ms = -1;  // the longest Event Timing duration of a click; -1: none reported
  // The timeline, relative to the window's start.
  double work_start_ms = 0, work_end_ms = 0;
  std::vector<double> frame_at_ms;
  std::vector<Span> longtask_spans;
};

// Throws std::runtime_error when a click the driver sent was never handled, or its send times are
// not one per click.
PageSummary summarize_page(const PageRun& run);

}  // namespace stallbench::browser
