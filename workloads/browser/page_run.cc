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
  try {
    PageRun run;
    run.window_start = reply.at("window_start").get<double>();
    run.work_start = reply.at("work_start").get<double>();
    run.work_end = reply.at("work_end").get<double>();
    run.window_end = reply.at("window_end").get<double>();
    run.answer = reply.at("answer");
    run.frames = list_of(reply, "frames", number);
    run.chunks = list_of(reply, "chunks", number);
    run.clicks = list_of(reply, "clicks", click);
    run.events = list_of(reply, "events", event);
    run.longtasks = list_of(reply, "longtasks", span);
    run.loafs = list_of(reply, "loafs", span);
    run.clicks_sent = reply.at("clicks_sent").get<int>();
    return run;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the driver's answer is malformed: ") + e.what());
  }
}

PageSummary summarize_page(const PageRun& run) {
  if (static_cast<int>(run.clicks.size()) != run.clicks_sent)
    throw std::runtime_error(std::to_string(run.clicks_sent) + " clicks were sent but the page handled " +
                             std::to_string(run.clicks.size()));
  PageSummary s;
  s.total_ms = run.work_end - run.work_start;
  s.work_start_ms = run.work_start - run.window_start;
  s.work_end_ms = run.work_end - run.window_start;
  for (std::size_t i = 0; i < run.frames.size(); ++i) {
    double t = run.frames[i];
    s.frame_at_ms.push_back(t - run.window_start);
    if (within(t, run.work_start, run.work_end)) ++s.frames;
    if (i > 0) s.frame_gap_max_ms = std::max(s.frame_gap_max_ms, t - run.frames[i - 1]);
  }
  s.frame_rate_hz = s.total_ms > 0 ? s.frames / (s.total_ms / 1e3) : 0;
  spans_in(run.longtasks, run, s.longtasks, s.longtask_max_ms, &s.longtask_spans);
  spans_in(run.loafs, run, s.loafs, s.loaf_max_ms, nullptr);
  s.chunks = static_cast<int>(run.chunks.size());
  for (double c : run.chunks) s.chunk_max_ms = std::max(s.chunk_max_ms, c);
  std::vector<double> delays;
  for (const auto& c : run.clicks) {
    if (!within(c.at, run.window_start, run.window_end)) continue;
    ClickTiming t{c.at - run.window_start, c.start - c.at, c.end - c.start, -1};
    if (const TimedEvent* e = event_of(c, run.events)) t = {t.at, e->start - e->at, e->end - e->start, e->duration};
    s.clicks.push_back(t);
    delays.push_back(t.delay);
    s.input_delay_max_ms = std::max(s.input_delay_max_ms, t.delay);
    s.processing_max_ms = std::max(s.processing_max_ms, t.processing);
    s.interaction_max_ms = std::max(s.interaction_max_ms, t.duration);
  }
  s.input_delay_p50_ms = stallbench::summarize(delays).p50;
  return s;
}

}  // namespace stallbench::browser
