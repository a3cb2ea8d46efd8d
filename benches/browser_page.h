// The browser family's `page` benchmark: a user's own page (a URL on 127.0.0.1, or a file whose
// folder is served there), loaded in each installed browser by workloads/browser/driver/page.mjs,
// an optional interaction script run on it, and the web metrics of what it did (user_page.h). Its
// inputs come from `stallbench page`; without a page it has no cells. The user's bad input (a page
// that does not load, an element that never appears) is a `rejected` cell, which the command turns
// into one line and exit 2.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

#include "../workloads/browser/session.h"
#include "../workloads/browser/setup.h"
#include "../workloads/browser/user_page.h"
#include "harness/harness.h"

namespace stallbench::bench::page {

using Session = std::function<browser::BrowserSession&(const browser::BrowserKind&, const std::string&)>;

inline const std::vector<Input> kInputs = {
    {.name = "page", .doc = "the page: http://127.0.0.1:PORT/... or an absolute file path (its folder is served)"},
    {.name = "page_script", .doc = "an interaction script: a JSON list of steps or a module (.mjs); empty: none"},
    {.name = "page_wait_ms", .doc = "quiet watched after the load and after the script", .fallback = "1000"},
    {.name = "page_step_timeout_ms", .doc = "how long a step waits for its element", .fallback = "10000"},
    {.name = "page_references", .doc = "web-vitals and/or lighthouse (comma-separated): the references measured "
                                       "beside (lighthouse: Chromium only); empty: none"},
    {.name = "page_details", .doc = "a folder for each repetition's long animation frames and their scripts "
                                    "(JSON); empty: none"},
};

inline void write_details(const std::string& folder, const std::string& name, const browser::UserPageSummary& s,
                          const browser::UserPageRun& run) {
  if (folder.empty()) return;
  nlohmann::json loafs = nlohmann::json::array();
  for (const auto& l : s.loafs)
    loafs.push_back({{"at_ms", l.at}, {"duration_ms", l.duration}, {"blocking_ms", l.blocking},
                     {"script", l.has_script ? nlohmann::json{{"invoker", l.script.invoker},
                                                              {"invoker_type", l.script.invoker_type},
                                                              {"file", l.script.file}, {"function", l.script.function},
                                                              {"char", l.script.char_position},
                                                              {"duration_ms", l.script.duration}}
                                             : nlohmann::json()}});
  nlohmann::json doc = {{"urls", run.urls}, {"refused", run.refused}, {"loafs", loafs}};
  std::string path = folder + "/" + name + ".json", partial = path + ".part";
  std::ofstream(partial) << doc.dump(1) << "\n";
  std::filesystem::rename(partial, path);  // whole or absent
}

inline void report(Counters& out, const browser::UserPageSummary& s, const browser::UserPageRun& run) {
  out.set("window_ms", s.window_ms);
  out.set("documents", s.documents);
  if (s.fcp_ms >= 0) out.set("fcp_ms", s.fcp_ms);
  out.set("frames", s.frames);
  out.set("frame_rate_hz", s.frame_rate_hz);
  out.set("frame_gap_max_ms", s.frame_gap_max_ms);
  out.set("tbt_ms", s.tbt_ms);
  out.set("tbt_frames_ms", s.tbt_frames_ms);
  if (s.tbt_measures_ms >= 0) out.set("tbt_measures_ms", s.tbt_measures_ms);
  if (run.lighthouse_tbt >= 0) out.set("tbt_lighthouse_ms", run.lighthouse_tbt);
  if (run.has_longtasks) out.set("longtasks", s.longtasks), out.set("longtask_max_ms", s.longtask_max_ms);
  if (run.has_loafs) out.set("loafs", static_cast<double>(s.loafs.size())), out.set("loaf_max_ms", s.loaf_max_ms);
  out.set("interactions", static_cast<double>(s.interactions.size()));
  out.set("clicks", static_cast<double>(run.clicks_sent.size()));
  out.set("refused_hosts", static_cast<double>(run.refused.size()));
  if (s.inp_ms >= 0) {
    out.set("inp_ms", s.inp_ms);
    out.set("inp_input_delay_ms", s.inp_input_delay_ms);
    out.set("inp_processing_ms", s.inp_processing_ms);
    out.set("inp_presentation_ms", s.inp_presentation_ms);
  }
  if (run.web_vitals_inp >= 0) out.set("inp_web_vitals_ms", run.web_vitals_inp);
  std::vector<double> at, length, loaf_at, loaf_length, act_at, act_ms;
  for (const auto& t : (run.has_longtasks ? s.longtask_spans : s.frame_longtask_spans))
    at.push_back(t.at), length.push_back(t.duration);
  for (const auto& l : s.loafs) loaf_at.push_back(l.at), loaf_length.push_back(l.duration);
  for (const auto& i : s.interactions) act_at.push_back(i.at), act_ms.push_back(i.duration);
  out.series("frame_at_ms", s.frame_at_ms);
  out.series("longtask_at_ms", at);
  out.series("longtask_ms", length);
  out.series("loaf_at_ms", loaf_at);
  out.series("loaf_ms", loaf_length);
  out.series("interaction_at_ms", act_at);
  out.series("interaction_ms", act_ms);
}

inline std::vector<Metric> metrics() {
  auto m = [](std::string name, std::string unit, std::string doc, bool tracked = false) {
    return Metric{.name = std::move(name), .unit = std::move(unit), .tracked = tracked, .doc = std::move(doc)};
  };
  return {
      m("window_ms", "ms", "the window measured: from the navigation to the quiet after the script"),
      m("documents", "count", "documents the page went through (navigations)"),
      m("fcp_ms", "ms", "the first contentful paint, from the navigation"),
      m("frames", "count", "requestAnimationFrame callbacks that ran in the window"),
      {.name = "frame_rate_hz", .unit = "Hz", .better = Better::higher, .doc = "frames per second of the window"},
      m("frame_gap_max_ms", "ms", "the longest gap between two frames"),
      m("tbt_ms", "ms", "Total Blocking Time from the first contentful paint on, from the best signal the browser "
                        "gives (Chromium: its longtask entries; Firefox: the frame gaps)", true),
      m("tbt_frames_ms", "ms", "TBT over the frame gaps' long tasks, in any browser: the cross-check"),
      m("tbt_measures_ms", "ms", "TBT over the page's own performance.measure() entries (a page that times its "
                                 "tasks itself); no row when it has none"),
      m("tbt_lighthouse_ms", "ms", "Lighthouse's observed TBT on the same page in the same Chromium (--reference "
                                   "lighthouse)"),
      m("longtasks", "count", "longtask entries from the first contentful paint on (Chromium only)"),
      m("longtask_max_ms", "ms", "the longest of them"),
      m("loafs", "count", "long animation frames (Chromium only; their scripts are in the run's page-details)"),
      m("loaf_max_ms", "ms", "the longest of them"),
      m("interactions", "count", "interactions Event Timing reported (16 ms and more, and the first input)"),
      m("clicks", "count", "clicks the interaction script sent"),
      m("refused_hosts", "count", "hosts other than loopback asked for during the run (the page's, or the browser's own "
                               "background calls), all refused: nothing leaves 127.0.0.1"),
      m("inp_ms", "ms", "INP as web-vitals computes it: the longest interaction, one in 50 ignored", true),
      m("inp_input_delay_ms", "ms", "INP's interaction: its event's timestamp to its first listener"),
      m("inp_processing_ms", "ms", "INP's interaction: its listeners"),
      m("inp_presentation_ms", "ms", "INP's interaction: the listeners' end to the next paint (the three add up)"),
      m("inp_web_vitals_ms", "ms", "web-vitals' own INP, injected into the same page (--reference web-vitals)"),
      m("frame_at_ms", "ms", "timeline: each frame"),
      m("longtask_at_ms", "ms", "timeline: each long task's start (longtask entries, else frame gaps)"),
      m("longtask_ms", "ms", "timeline: each long task's length"),
      m("loaf_at_ms", "ms", "timeline: each long animation frame's start"),
      m("loaf_ms", "ms", "timeline: each long animation frame's length"),
      m("interaction_at_ms", "ms", "timeline: each interaction's input"),
      m("interaction_ms", "ms", "timeline: each interaction's duration, input to next paint"),
  };
}

// The verdicts' thresholds: web.dev's for INP, Lighthouse's default (mobile) for TBT, since a user's
// page may be either; the report and the command read them from here.
inline const std::vector<Constant> kThresholds = {
    {.name = "inp_good_ms", .value = 200, .doc = "INP at or under this is good (web.dev)"},
    {.name = "inp_poor_ms", .value = 500, .doc = "INP over this is poor; between: needs improvement"},
    {.name = "tbt_good_ms", .value = 200, .doc = "TBT at or under this is good (Lighthouse's default, mobile)"},
    {.name = "tbt_poor_ms", .value = 600, .doc = "TBT over this is poor (Lighthouse's default, mobile)"},
};

// An input in ms that may be 0 (no quiet time); throws std::invalid_argument naming it otherwise.
inline double milliseconds(const Inputs& in, const std::string& name) {
  const std::string& text = in.text(name);
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || !(value >= 0)) throw std::invalid_argument("input " + name + "=" + text + ": expected ms >= 0");
  return value;
}

// A page run's own limit: a load, the script's steps and quiet, and Lighthouse's run beside it, which
// waits for the page to go quiet (on a loaded machine, up to its own limits).
constexpr double kLimitS = 300;

// `missing`: why no browser at all can run it ("" when one can), as the family's other benchmarks say.
inline Benchmark benchmark(const Inputs& in, Param browser_param, Session session, std::function<std::string()> missing) {
  const double limit_s = kLimitS;
  std::string page = in.text("page");
  nlohmann::json request = {{"page", page}, {"script", in.text("page_script")},
                            {"wait_ms", milliseconds(in, "page_wait_ms")},
                            {"step_timeout_ms", in.positive_number("page_step_timeout_ms")},
                            {"references", in.text("page_references")}, {"limit_ms", limit_s * 1e3}};
  std::string details = in.text("page_details");
  browser_param.smoke = browser_param.values;
  return {
      .name = "page",
      .doc = "a user's page (stallbench page URL-or-FILE): its load and an optional interaction script in each "
             "browser, with TBT, INP and its phases, frames, long tasks and long animation frames",
      .params = {std::move(browser_param)},
      .metrics = metrics(),
      .timeout_s = limit_s + 60,
      .make = [=](const Cell& cell) -> Repetition {
        auto counter = std::make_shared<int>(0);
        return [=](Counters& out) {
          const auto& kind = browser::browser_kind(cell.text("browser"));
          browser::UserPageRun run;
          try {
            run = browser::parse_user_page_run(session(kind, "page.mjs").ask(request, limit_s));
          } catch (const browser::UserPageRejected& e) {
            throw CellFailure("rejected", e.what());
          }
          browser::UserPageSummary s = browser::summarize_user_page(run);
          report(out, s, run);
          write_details(details, kind.name + "-" + std::to_string((*counter)++), s, run);
          return s.window_ms;
        };
      },
      .valid = [page](const Cell& cell) {
        return !page.empty() && browser::why_unavailable(browser::browser_kind(cell.text("browser"))).empty();
      },
      .outcomes = {"rejected"},
      .missing = std::move(missing),
      .reserves_address_space = true,
      .constants = kThresholds,
  };
}

}  // namespace stallbench::bench::page
