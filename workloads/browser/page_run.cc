#include "page_run.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../common/summary.h"

namespace stallbench::browser {
namespace {

using nlohmann::json;

constexpr double kSameEventMs = 0.5;  // Event Timing's startTime is the event's timestamp, both coarsened

template <typename T>
std::vector<T> list_of(const json& reply, const char* key, T (*one)(const json&)) {
  std::vector<T> out;
  for (const auto& item : reply.at(key)) out.push_back(one(item));
  return out;
}

Span span(const json& j) { return {j.at("at").get<double>(), j.at("duration").get<double>()}; }
PageClick click(const json& j) { return {j.at("at").get<double>(), j.at("start").get<double>(), j.at("end").get<double>()}; }
TimedEvent event(const json& j) {
  return {j.at("at").get<double>(), j.at("start").get<double>(), j.at("end").get<double>(), j.at("duration").get<double>()};
}
double number(const json& j) { return j.get<double>(); }
double or_zero(const json& j, const char* key) { return j.contains(key) && j.at(key).is_number() ? j.at(key).get<double>() : 0; }
std::string or_empty(const json& j, const char* key) {
  return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}
Loaf loaf(const json& j) {
  Loaf l{j.at("at").get<double>(), j.at("duration").get<double>(), or_zero(j, "blocking"), or_zero(j, "render_start"),
         or_zero(j, "style_layout_start"), false, {}};
  if (j.contains("script") && j.at("script").is_object()) {
    const json& s = j.at("script");
    l.has_script = true;
    l.script = {or_empty(s, "invoker"), or_empty(s, "invoker_type"), or_empty(s, "file"), or_empty(s, "function"),
                s.contains("char") && s.at("char").is_number() ? s.at("char").get<double>() : -1,
                or_zero(s, "duration"), or_zero(s, "forced_layout")};
  }
  return l;
}

bool within(double t, double from, double to) { return t >= from && t <= to; }

const TimedEvent* event_of(const PageClick& c, const std::vector<TimedEvent>& events) {
  for (const auto& e : events)
    if (std::fabs(e.at - c.at) <= kSameEventMs) return &e;
  return nullptr;
}

void spans_in(const std::vector<Span>& all, const PageRun& run, int& count, double& longest, std::vector<Span>* kept) {
  for (const auto& s : all) {
    if (!within(s.at, run.window_start, run.window_end)) continue;
    ++count;
    longest = std::max(longest, s.duration);
    if (kept) kept->push_back({s.at - run.window_start, s.duration});
  }
}

}  // namespace

json PageRequest::to_json() const {
  return {{"work", work}, {"size", size}, {"payload", payload}, {"strategy", strategy}, {"chunk", chunk},
          {"click_ms", click_ms}, {"lead_ms", lead_ms}, {"tail_ms", lead_ms}, {"limit_ms", limit_s * 1e3}};
}

PageRun parse_page_run(const json& reply) {
  if (reply.contains("error")) throw std::runtime_error(reply.at("error").get<std::string>());
  if (reply.contains("rejected")) throw PageRejected(reply.at("rejected").get<std::string>());
  try {
    PageRun run;
    run.window_start = reply.at("window_start").get<double>();
    run.work_start = reply.at("work_start").get<double>();
    run.work_end = reply.at("work_end").get<double>();
    run.window_end = reply.at("window_end").get<double>();
    run.answer = reply.at("answer");
    if (reply.contains("worker")) {
      const json& w = reply.at("worker");
      run.has_worker = true;
      run.worker = {w.at("post_start").get<double>(), w.at("post_end").get<double>(), w.at("received").get<double>(),
                    w.at("replied").get<double>(), w.at("answered").get<double>()};
    }
    run.frames = list_of(reply, "frames", number);
    run.chunks = list_of(reply, "chunks", number);
    run.clicks = list_of(reply, "clicks", click);
    run.events = list_of(reply, "events", event);
    run.longtasks = list_of(reply, "longtasks", span);
    run.loafs = list_of(reply, "loafs", loaf);
    run.clicks_sent = reply.at("clicks_sent").get<int>();
    run.sent_at = list_of(reply, "sent_at", number);
    run.click_ms = reply.at("click_ms").get<double>();
    if (reply.contains("supported")) {
      run.has_longtasks = reply.at("supported").at("longtask").get<bool>();
      run.has_loafs = reply.at("supported").at("loaf").get<bool>();
    }
    return run;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the driver's answer is malformed: ") + e.what());
  }
}

const std::vector<std::string>& loaf_invoker_types() {
  static const std::vector<std::string> types = {"user-callback", "event-listener", "resolve-promise",
                                                 "reject-promise", "classic-script", "module-script"};
  return types;
}

PageSummary summarize_page(const PageRun& run) {
  if (static_cast<int>(run.clicks.size()) != run.clicks_sent)
    throw std::runtime_error(std::to_string(run.clicks_sent) + " clicks were sent but the page handled " +
                             std::to_string(run.clicks.size()));
  if (run.sent_at.size() != run.clicks.size())
    throw std::runtime_error("the driver gave " + std::to_string(run.sent_at.size()) + " send times for " +
                             std::to_string(run.clicks.size()) + " clicks");
  PageSummary s;
  s.total_ms = run.work_end - run.work_start;
  s.work_start_ms = run.work_start - run.window_start;
  s.work_end_ms = run.work_end - run.window_start;
  std::vector<double> gaps;
  for (std::size_t i = 0; i < run.frames.size(); ++i) {
    double t = run.frames[i];
    s.frame_at_ms.push_back(t - run.window_start);
    if (within(t, run.work_start, run.work_end)) ++s.frames;
    if (i > 0) {
      s.frame_gap_max_ms = std::max(s.frame_gap_max_ms, t - run.frames[i - 1]);
      gaps.push_back(t - run.frames[i - 1]);
    }
  }
  s.frame_rate_hz = s.total_ms > 0 ? s.frames / (s.total_ms / 1e3) : 0;
  s.frame_interval_ms = gaps.empty() ? 0 : stallbench::summarize(gaps).p50;
  s.frame_longtask_spans = frame_gap_long_tasks(s.frame_at_ms, s.frame_interval_ms);
  for (const auto& t : s.frame_longtask_spans) s.frame_longtask_max_ms = std::max(s.frame_longtask_max_ms, t.duration);
  s.tbt_frames_ms = total_blocking_time(s.frame_longtask_spans);
  s.has_longtasks = run.has_longtasks;
  s.has_loafs = run.has_loafs;
  spans_in(run.longtasks, run, s.longtasks, s.longtask_max_ms, &s.longtask_spans);
  s.tbt_ms = s.has_longtasks ? total_blocking_time(s.longtask_spans) : s.tbt_frames_ms;
  s.tbt_signal = s.has_longtasks ? kTbtFromLongtasks : kTbtFromFrames;
  for (const auto& l : run.loafs) {
    if (!within(l.at, run.window_start, run.window_end)) continue;
    ++s.loafs;
    s.loaf_max_ms = std::max(s.loaf_max_ms, l.duration);
    s.loaf_blocking_max_ms = std::max(s.loaf_blocking_max_ms, l.blocking);
    s.loaf_blocking_sum_ms += l.blocking;
    Loaf kept = l;
    kept.at = l.at - run.window_start;
    kept.render_start = l.render_start > 0 ? l.render_start - l.at : -1;
    kept.style_layout_start = l.style_layout_start > 0 ? l.style_layout_start - l.at : -1;
    s.loaf_list.push_back(kept);
  }
  if (run.has_worker) {
    const WorkerTimes& w = run.worker;
    s.has_worker_phases = true;
    s.worker_start_ms = w.received - run.work_start;
    s.worker_post_message_ms = w.post_end - w.post_start;
    s.worker_compute_ms = w.replied - w.received;
    s.worker_answer_ms = w.answered - w.replied;
    s.worker_settle_ms = run.work_end - w.answered;
  }
  s.chunks = static_cast<int>(run.chunks.size());
  for (double c : run.chunks) s.chunk_max_ms = std::max(s.chunk_max_ms, c);
  // A click happened at its event's timestamp: when the browser received the input (Chromium's
  // browser process; Firefox's parent process, where the driver synthesizes it), however long the
  // page then kept it waiting.
  std::vector<double> delays, arrived;
  for (const auto& c : run.clicks) arrived.push_back(c.at);
  s.delivery = input_delivery(run.sent_at, arrived, run.work_start, run.work_end, run.click_ms);
  for (const auto& c : run.clicks) {
    double input = c.at;
    if (!within(input, run.window_start, run.window_end)) continue;
    double start = c.start, end = c.end, paint = -1, duration = -1;
    if (const TimedEvent* e = event_of(c, run.events)) {
      start = e->start, end = e->end, duration = e->duration;
      paint = e->at + e->duration;
    } else {
      auto next = std::upper_bound(run.frames.begin(), run.frames.end(), end);
      paint = next != run.frames.end() ? *next : end;
    }
    paint = std::max(paint, end);  // Event Timing rounds its duration to 8 ms
    ClickTiming t{input - run.window_start, start - input, end - start, paint - end, paint - input, duration};
    s.clicks.push_back(t);
    delays.push_back(t.delay);
    s.input_delay_max_ms = std::max(s.input_delay_max_ms, t.delay);
    s.processing_max_ms = std::max(s.processing_max_ms, t.processing);
    s.interaction_max_ms = std::max(s.interaction_max_ms, t.duration);
  }
  s.input_delay_p50_ms = stallbench::summarize(delays).p50;
  std::vector<double> interactions;
  for (const auto& c : s.clicks) interactions.push_back(c.interaction);
  if (int worst = inp_index(interactions); worst >= 0 && s.delivery.backlogged == 0) {
    const ClickTiming& c = s.clicks[worst];
    s.inp_ms = c.interaction, s.inp_input_delay_ms = c.delay, s.inp_processing_ms = c.processing,
    s.inp_presentation_ms = c.presentation;
  }
  return s;
}

}  // namespace stallbench::browser
