// The browser family's summary of a page run: what counts as a frame during the work, which long
// tasks and clicks fall in the window, where Event Timing's figures replace the listener's, and
// that a click sent but never handled fails the run. Synthetic runs: no browser needed.
#include <gtest/gtest.h>

#include "workloads/browser/page_run.h"

using namespace stallbench::browser;
using nlohmann::json;

namespace {

// A window 1000-1600 ms, work 1200-1400 ms: frames every 20 ms except during the work.
json inline_reply() {
  json frames = json::array();
  for (double t = 1000; t <= 1600; t += 20)
    if (t < 1200 || t > 1400) frames.push_back(t);
  return {{"window_start", 1000}, {"work_start", 1200}, {"work_end", 1400}, {"window_end", 1600},
          {"answer", {{"rows", 1}}}, {"frames", frames}, {"chunks", {200}},
          {"clicks", {{{"at", 900}, {"start", 901}, {"end", 902}},     // before the window: not counted
                      {{"at", 1100}, {"start", 1101}, {"end", 1101.5}},
                      {{"at", 1250}, {"start", 1400}, {"end", 1401}}}},  // waited for the work to end
          {"events", {{{"at", 1250}, {"start", 1400.5}, {"end", 1401.5}, {"duration", 160}}}},
          {"longtasks", {{{"at", 500}, {"duration", 80}}, {{"at", 1200}, {"duration", 200}}}},
          {"loafs", {{{"at", 1190}, {"duration", 230}}}},
          {"clicks_sent", 3}, {"sent_at", {899.5, 1099, 1249}}, {"click_ms", 50}};
}

}  // namespace

TEST(BrowserPageRun, InlineWorkHasNoFramesAndTheLongestGapSpansIt) {
  PageSummary s = summarize_page(parse_page_run(inline_reply()));
  EXPECT_DOUBLE_EQ(s.total_ms, 200);
  EXPECT_EQ(s.frames, 0);
  EXPECT_DOUBLE_EQ(s.frame_rate_hz, 0);
  EXPECT_DOUBLE_EQ(s.frame_gap_max_ms, 240);  // the frame at 1180 to the one at 1420
  EXPECT_DOUBLE_EQ(s.work_start_ms, 200);
  EXPECT_DOUBLE_EQ(s.frame_at_ms.front(), 0);
}

TEST(BrowserPageRun, OnlyLongTasksInTheWindowCount) {
  PageSummary s = summarize_page(parse_page_run(inline_reply()));
  EXPECT_EQ(s.longtasks, 1);
  EXPECT_DOUBLE_EQ(s.longtask_max_ms, 200);
  ASSERT_EQ(s.longtask_spans.size(), 1u);
  EXPECT_DOUBLE_EQ(s.longtask_spans[0].at, 200);
  EXPECT_EQ(s.loafs, 1);
  EXPECT_DOUBLE_EQ(s.loaf_max_ms, 230);
}

TEST(BrowserPageRun, ClicksInTheWindowTakeEventTimingWhereItHasThem) {
  PageSummary s = summarize_page(parse_page_run(inline_reply()));
  ASSERT_EQ(s.clicks.size(), 2u);
  EXPECT_DOUBLE_EQ(s.clicks[0].delay, 1);        // the listener's own figures
  EXPECT_DOUBLE_EQ(s.clicks[0].duration, -1);    // under Event Timing's floor
  EXPECT_DOUBLE_EQ(s.clicks[1].at, 250);
  EXPECT_DOUBLE_EQ(s.clicks[1].delay, 150.5);    // Event Timing's processingStart - startTime
  EXPECT_DOUBLE_EQ(s.clicks[1].processing, 1);
  EXPECT_DOUBLE_EQ(s.input_delay_max_ms, 150.5);
  EXPECT_DOUBLE_EQ(s.interaction_max_ms, 160);
}

TEST(BrowserPageRun, FramesDuringChunkedWorkCount) {
  json reply = inline_reply();
  reply["frames"] = {1190, 1210, 1230, 1390, 1410};
  PageSummary s = summarize_page(parse_page_run(reply));
  EXPECT_EQ(s.frames, 3);
  EXPECT_DOUBLE_EQ(s.frame_rate_hz, 15);  // 3 frames in 0.2 s
  EXPECT_DOUBLE_EQ(s.frame_gap_max_ms, 160);
}

TEST(BrowserPageRun, AClickSentButNeverHandledFailsTheRun) {
  json reply = inline_reply();
  reply["clicks_sent"] = 4;
  EXPECT_THROW(summarize_page(parse_page_run(reply)), std::runtime_error);
}

TEST(BrowserPageRun, TheDriversErrorIsTheMessage) {
  try {
    parse_page_run(json{{"error", "timeout: the page run did not finish within 60 s"}});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "timeout: the page run did not finish within 60 s");
  }
  EXPECT_THROW(parse_page_run(json{{"frames", json::array()}}), std::runtime_error);
}

TEST(BrowserPageRun, TheRequestCarriesItsLimitInMilliseconds) {
  PageRequest r{.work = "report", .size = 10, .strategy = "yield", .chunk = 5, .limit_s = 2.5};
  json j = r.to_json();
  EXPECT_EQ(j.at("limit_ms").get<double>(), 2500);
  EXPECT_EQ(j.at("tail_ms").get<int>(), j.at("lead_ms").get<int>());
}

TEST(BrowserPageRun, TotalBlockingTimeIsEachLongTasksTimeBeyond50ms) {
  std::vector<Span> tasks = {{0, 30}, {100, 50}, {200, 80}, {400, 250.5}};
  EXPECT_DOUBLE_EQ(total_blocking_time(tasks), 30 + 200.5);  // 30 and 50 ms tasks block nothing
  EXPECT_DOUBLE_EQ(total_blocking_time({}), 0);
}

TEST(BrowserPageRun, LongTasksFromFrameGapsAreTheGapLessHalfAFrameInterval) {
  // Frames 16 ms apart, then one 100 ms gap (a task of 92 ms from 8 ms after the frame) and one of
  // 60 (52: long) and one of 50 (42: short).
  std::vector<Span> tasks = frame_gap_long_tasks({0, 16, 32, 132, 148, 208, 258}, 16);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(tasks[0].at, 40);
  EXPECT_DOUBLE_EQ(tasks[0].duration, 92);
  EXPECT_DOUBLE_EQ(tasks[1].duration, 52);
}

TEST(BrowserPageRun, TbtComesFromTheLongtaskEntriesWhereTheBrowserHasThem) {
  PageSummary s = summarize_page(parse_page_run(inline_reply()));
  EXPECT_DOUBLE_EQ(s.frame_interval_ms, 20);
  EXPECT_DOUBLE_EQ(s.tbt_frames_ms, 240 - 10 - 50);  // the gap over the work
  EXPECT_DOUBLE_EQ(s.tbt_ms, 150);                   // the 200 ms longtask entry in the window
  EXPECT_EQ(s.tbt_signal, kTbtFromLongtasks);
}

TEST(BrowserPageRun, InpPhasesAddUpToTheInteraction) {
  PageSummary s = summarize_page(parse_page_run(inline_reply()));
  ASSERT_EQ(s.clicks.size(), 2u);
  for (const auto& c : s.clicks) EXPECT_DOUBLE_EQ(c.delay + c.processing + c.presentation, c.interaction);
  // The click held by the work is INP's, from its event's timestamp; Event Timing's paint
  // (startTime + duration) ends it.
  EXPECT_DOUBLE_EQ(s.inp_ms, s.inp_input_delay_ms + s.inp_processing_ms + s.inp_presentation_ms);
  EXPECT_DOUBLE_EQ(s.inp_presentation_ms, 1250 + 160 - 1401.5);
  EXPECT_DOUBLE_EQ(s.inp_input_delay_ms, 150.5);
  // A click Event Timing left out is painted at the next frame after its listener.
  EXPECT_DOUBLE_EQ(s.clicks[0].presentation, 1120 - 1101.5);
  EXPECT_DOUBLE_EQ(s.delivery.lag_max_ms, 1);  // each event stamped within a ms of its send
  EXPECT_EQ(s.delivery.backlogged, 0);
}

TEST(BrowserPageRun, ClicksDeliveredInABurstAfterTheWorkMarkTheRepetition) {
  json reply = inline_reply();
  // Sent at 1220 and 1270, during the work; stamped in a burst after it ended at 1400.
  reply["clicks"] = {{{"at", 1100}, {"start", 1101}, {"end", 1101.5}},
                     {{"at", 1405}, {"start", 1406}, {"end", 1407}},
                     {{"at", 1406}, {"start", 1407}, {"end", 1408}}};
  reply["sent_at"] = {1099, 1220, 1270};
  reply["events"] = json::array();
  PageSummary s = summarize_page(parse_page_run(reply));
  EXPECT_EQ(s.delivery.backlogged, 2);
  EXPECT_DOUBLE_EQ(s.delivery.lag_max_ms, 1405 - 1220);
  EXPECT_LT(s.inp_ms, 0);  // not the page's: not reported
}

TEST(BrowserPageRun, InpIgnoresOneInteractionIn50) {
  std::vector<double> durations(120);
  for (std::size_t i = 0; i < durations.size(); ++i) durations[i] = static_cast<double>(i);
  EXPECT_EQ(inp_index(durations), 117);  // 120 interactions: the two longest ignored
  durations.resize(49);
  EXPECT_EQ(inp_index(durations), 48);  // under 50: the longest
  EXPECT_EQ(inp_index({}), -1);
}

TEST(BrowserPageRun, EntryTypesTheBrowserLacksAreNotAvailableNotZero) {
  json reply = inline_reply();
  reply["supported"] = {{"longtask", false}, {"loaf", false}};
  reply["longtasks"] = json::array();
  reply["loafs"] = json::array();
  PageSummary s = summarize_page(parse_page_run(reply));
  EXPECT_FALSE(s.has_longtasks);
  EXPECT_FALSE(s.has_loafs);
  EXPECT_DOUBLE_EQ(s.tbt_ms, 180);  // the frames still show the long task
  EXPECT_EQ(s.tbt_signal, kTbtFromFrames);
}

TEST(BrowserPageRun, AStrategyTheBrowserLacksIsRejected) {
  EXPECT_THROW(parse_page_run(json{{"rejected", "scheduler.yield is not available in this browser"}}), PageRejected);
}

TEST(BrowserPageRun, LoafsKeepBlockingRenderStartsAndTheirLongestScript) {
  json reply = inline_reply();
  reply["loafs"] = {{{"at", 1190}, {"duration", 230}, {"blocking", 150}, {"render_start", 1410}, {"style_layout_start", 1412},
                     {"script", {{"invoker", "TimerHandler:setTimeout"}, {"invoker_type", "user-callback"},
                                 {"file", "work.js"}, {"function", "step"}, {"char", 120}, {"duration", 200},
                                 {"forced_layout", 0}}}}};
  PageSummary s = summarize_page(parse_page_run(reply));
  ASSERT_EQ(s.loaf_list.size(), 1u);
  EXPECT_DOUBLE_EQ(s.loaf_blocking_max_ms, 150);
  EXPECT_DOUBLE_EQ(s.loaf_list[0].render_start, 220);
  EXPECT_DOUBLE_EQ(s.loaf_list[0].style_layout_start, 222);
  EXPECT_EQ(s.loaf_list[0].script.file, "work.js");
  EXPECT_EQ(loaf_invoker_types().front(), "user-callback");
}

TEST(BrowserPageRun, AWorkersPhasesAddUpToTheJobAndOnlyAWorkerHasThem) {
  EXPECT_FALSE(summarize_page(parse_page_run(inline_reply())).has_worker_phases);
  json reply = inline_reply();  // the job from 1200 to 1400
  reply["worker"] = {{"post_start", 1203}, {"post_end", 1203.25}, {"received", 1240}, {"replied", 1390},
                     {"answered", 1399.5}};
  PageSummary s = summarize_page(parse_page_run(reply));
  ASSERT_TRUE(s.has_worker_phases);
  EXPECT_DOUBLE_EQ(s.worker_start_ms, 40);
  EXPECT_DOUBLE_EQ(s.worker_post_message_ms, 0.25);
  EXPECT_DOUBLE_EQ(s.worker_compute_ms, 150);
  EXPECT_DOUBLE_EQ(s.worker_answer_ms, 9.5);
  EXPECT_DOUBLE_EQ(s.worker_settle_ms, 0.5);
  EXPECT_DOUBLE_EQ(s.worker_start_ms + s.worker_compute_ms + s.worker_answer_ms + s.worker_settle_ms, s.total_ms);
  reply["worker"].erase("replied");
  EXPECT_THROW(parse_page_run(reply), std::runtime_error);  // malformed: named, not guessed
}
