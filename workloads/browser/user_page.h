// A user's page as `stallbench page` measured it (driver/page.mjs, pages/observer.js): every
// document it went through, on one Unix clock (ms), and what the family reports about it. The
// metrics are the long-task family's, computed the same way (web_metrics.h): TBT from the best
// signal the browser gives, INP as web-vitals chooses it with its three phases, the frames.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "web_metrics.h"

namespace stallbench::browser {

// An Event Timing entry of an interaction (interactionId > 0: pointer, click, key).
struct InteractionEntry {
  std::string name;
  long long id = 0;
  double at = 0, start = 0, end = 0, duration = 0;  // startTime, processingStart/End, duration
};

struct LoafSource {  // a long animation frame's longest script, as the observer named it
  std::string invoker, invoker_type, file, function;
  double char_position = -1, duration = 0;
};
struct UserLoaf {
  double at = 0, duration = 0, blocking = 0;
  bool has_script = false;
  LoafSource script;
};

struct UserPageRun {
  double start = 0, end = 0;  // the run's window: from the navigation to after the script's quiet
  std::vector<std::string> urls;  // each document's
  std::vector<double> frames, paints_fcp, clicks_sent;
  std::vector<Span> longtasks, measures;  // measures: the page's own performance.measure() entries
  std::vector<UserLoaf> loafs;
  std::vector<InteractionEntry> entries;
  std::vector<std::string> refused;  // hosts the page asked for that the proxy refused
  bool has_longtasks = false, has_loafs = false;
  double web_vitals_inp = -1;  // web-vitals' own INP, when it was injected (-1: not)
  double lighthouse_tbt = -1;  // Lighthouse's observed TBT on the same page (-1: not run)
};

// Thrown for the user's bad input the driver found (a page that does not load, an element that
// never appears, a script that does not run): the cell is `rejected`, and the command exits 2.
struct UserPageRejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

UserPageRun parse_user_page_run(const nlohmann::json& reply);

struct Interaction {
  double at = 0;  // relative to the window's start
  double delay = 0, processing = 0, presentation = 0, duration = 0;  // the phases add up to duration
};

struct UserPageSummary {
  double window_ms = 0, fcp_ms = -1;  // fcp: the first document's first contentful paint, from the start
  int documents = 0, frames = 0;
  double frame_rate_hz = 0, frame_gap_max_ms = 0, frame_interval_ms = 0;
  double tbt_ms = 0, tbt_frames_ms = 0, tbt_measures_ms = -1;  // -1: the page measured nothing itself
  std::string tbt_signal;
  int longtasks = 0;
  double longtask_max_ms = 0;
  std::vector<Span> longtask_spans, frame_longtask_spans;  // relative to the window's start
  std::vector<UserLoaf> loafs;                             // relative to the window's start
  double loaf_max_ms = 0, loaf_blocking_sum_ms = 0;
  std::vector<Interaction> interactions;
  double inp_ms = -1, inp_input_delay_ms = 0, inp_processing_ms = 0, inp_presentation_ms = 0;
  std::vector<double> frame_at_ms;
};

// Everything in the window; TBT over tasks from the first contentful paint on (clipped at it, as
// Lighthouse does: tasks before the page shows anything block no one), or from the start when the
// page painted nothing.
UserPageSummary summarize_user_page(const UserPageRun& run);

}  // namespace stallbench::browser
