#include "user_page.h"

#include <algorithm>
#include <map>

#include "../common/summary.h"

namespace stallbench::browser {
namespace {

using nlohmann::json;

double number_or(const json& j, const char* key, double fallback) {
  return j.contains(key) && j.at(key).is_number() ? j.at(key).get<double>() : fallback;
}
std::string text_or_empty(const json& j, const char* key) {
  return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}

void read_document(const json& d, UserPageRun& run) {
  run.urls.push_back(d.at("url").get<std::string>());
  for (const auto& t : d.at("frames")) run.frames.push_back(t.get<double>());
  for (const auto& p : d.at("paints"))
    if (p.at("name") == "first-contentful-paint") run.paints_fcp.push_back(p.at("at").get<double>());
  for (const auto& t : d.at("longtasks")) run.longtasks.push_back({t.at("at").get<double>(), t.at("duration").get<double>()});
  for (const auto& m : d.at("measures")) run.measures.push_back({m.at("at").get<double>(), m.at("duration").get<double>()});
  for (const auto& e : d.at("events"))
    if (e.at("id").get<long long>() > 0)
      run.entries.push_back({e.at("name").get<std::string>(), e.at("id").get<long long>(), e.at("at").get<double>(),
                             e.at("start").get<double>(), e.at("end").get<double>(), e.at("duration").get<double>()});
  for (const auto& l : d.at("loafs")) {
    UserLoaf loaf{l.at("at").get<double>(), l.at("duration").get<double>(), number_or(l, "blocking", 0), false, {}};
    if (l.contains("script") && l.at("script").is_object()) {
      const json& s = l.at("script");
      loaf.has_script = true;
      loaf.script = {text_or_empty(s, "invoker"), text_or_empty(s, "invoker_type"), text_or_empty(s, "file"),
                     text_or_empty(s, "function"), number_or(s, "char", -1), number_or(s, "duration", 0)};
    }
    run.loafs.push_back(loaf);
  }
  run.has_longtasks = run.has_longtasks || d.at("supported").value("longtask", false);
  run.has_loafs = run.has_loafs || d.at("supported").value("loaf", false);
  run.web_vitals_inp = std::max(run.web_vitals_inp, number_or(d, "web_vitals_inp", -1));
}

// Each interaction (Event Timing entries sharing an interactionId) as web-vitals takes it: its
// longest entry, from the input to the next paint, split into its phases.
std::vector<Interaction> interactions_of(const std::vector<InteractionEntry>& entries, double from) {
  std::map<long long, const InteractionEntry*> longest;
  for (const auto& e : entries)
    if (!longest.count(e.id) || e.duration > longest[e.id]->duration) longest[e.id] = &e;
  std::vector<Interaction> out;
  for (const auto& [id, e] : longest) {
    double paint = std::max(e->at + e->duration, e->end);  // Event Timing rounds duration to 8 ms
    out.push_back({e->at - from, e->start - e->at, e->end - e->start, paint - e->end, paint - e->at});
  }
  std::sort(out.begin(), out.end(), [](const Interaction& a, const Interaction& b) { return a.at < b.at; });
  return out;
}

// Tasks in [from, to], each clipped to start no earlier than `from`, relative to `origin`.
std::vector<Span> clipped(const std::vector<Span>& tasks, double from, double to, double origin) {
  std::vector<Span> out;
  for (const auto& t : tasks) {
    double start = std::max(t.at, from), end = std::min(t.at + t.duration, to);
    if (end > start) out.push_back({start - origin, end - start});
  }
  return out;
}

}  // namespace

UserPageRun parse_user_page_run(const json& reply) {
  if (reply.contains("error")) throw std::runtime_error(reply.at("error").get<std::string>());
  if (reply.contains("rejected")) throw UserPageRejected(reply.at("rejected").get<std::string>());
  try {
    UserPageRun run;
    run.start = reply.at("start").get<double>();
    run.end = reply.at("end").get<double>();
    for (const auto& d : reply.at("documents")) read_document(d, run);
    for (const auto& c : reply.at("clicks")) run.clicks_sent.push_back(c.get<double>());
    for (const auto& h : reply.at("refused")) run.refused.push_back(h.get<std::string>());
    run.lighthouse_tbt = number_or(reply, "lighthouse_tbt", -1);
    std::sort(run.frames.begin(), run.frames.end());
    return run;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the page driver's answer is malformed: ") + e.what());
  }
}

UserPageSummary summarize_user_page(const UserPageRun& run) {
  UserPageSummary s;
  s.window_ms = run.end - run.start;
  s.documents = static_cast<int>(run.urls.size());
  double fcp = run.paints_fcp.empty() ? run.start : *std::min_element(run.paints_fcp.begin(), run.paints_fcp.end());
  if (!run.paints_fcp.empty()) s.fcp_ms = fcp - run.start;
  std::vector<double> frames, gaps;
  for (double t : run.frames)
    if (t >= run.start && t <= run.end) frames.push_back(t), s.frame_at_ms.push_back(t - run.start);
  for (std::size_t i = 1; i < frames.size(); ++i) gaps.push_back(frames[i] - frames[i - 1]);
  s.frames = static_cast<int>(frames.size());
  s.frame_rate_hz = s.window_ms > 0 ? s.frames / (s.window_ms / 1e3) : 0;
  s.frame_gap_max_ms = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
  s.frame_interval_ms = gaps.empty() ? 0 : stallbench::summarize(gaps).p50;
  s.frame_longtask_spans = clipped(frame_gap_long_tasks(frames, s.frame_interval_ms), fcp, run.end, run.start);
  s.tbt_frames_ms = total_blocking_time(s.frame_longtask_spans);
  s.longtask_spans = clipped(run.longtasks, fcp, run.end, run.start);
  for (const auto& t : s.longtask_spans) s.longtask_max_ms = std::max(s.longtask_max_ms, t.duration);
  s.longtasks = static_cast<int>(s.longtask_spans.size());
  s.tbt_ms = run.has_longtasks ? total_blocking_time(s.longtask_spans) : s.tbt_frames_ms;
  s.tbt_signal = run.has_longtasks ? kTbtFromLongtasks : kTbtFromFrames;
  if (!run.measures.empty()) s.tbt_measures_ms = total_blocking_time(clipped(run.measures, fcp, run.end, run.start));
  for (const auto& l : run.loafs) {
    if (l.at < run.start || l.at > run.end) continue;
    UserLoaf kept = l;
    kept.at = l.at - run.start;
    s.loafs.push_back(kept);
    s.loaf_max_ms = std::max(s.loaf_max_ms, l.duration);
    s.loaf_blocking_sum_ms += l.blocking;
  }
  std::vector<InteractionEntry> in_window;
  for (const auto& e : run.entries)
    if (e.at >= run.start && e.at <= run.end) in_window.push_back(e);
  s.interactions = interactions_of(in_window, run.start);
  std::vector<double> durations;
  for (const auto& i : s.interactions) durations.push_back(i.duration);
  if (int worst = inp_index(durations); worst >= 0) {
    const Interaction& i = s.interactions[worst];
    s.inp_ms = i.duration, s.inp_input_delay_ms = i.delay, s.inp_processing_ms = i.processing,
    s.inp_presentation_ms = i.presentation;
  }
  return s;
}

}  // namespace stallbench::browser
