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
          {"clicks_sent", 3}};
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
