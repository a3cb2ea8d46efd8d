// The price report: the closed form agrees with the row-by-row sum; every mode, one request or
// several at once, produces exactly that revenue; chunked keeps the worst /health to about one
// slice while inline holds it for the whole report.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/report/report_modes.h"

using namespace stallbench;

TEST(PriceReport, ClosedFormMatchesTheRows) {
  for (std::uint64_t rows : {0ull, 1ull, 11'999ull, 12'000ull, 12'001ull, 1'000'003ull}) {
    EXPECT_EQ(build_price_report(rows), expected_price_report(rows)) << rows;
  }
  PriceReport one = build_price_report(1);  // row 0: 1 × 19.90, +20% VAT = 23.88
  EXPECT_EQ(one.revenue_cents, 2388);
  EXPECT_DOUBLE_EQ(one.mean_unit_price(), 19.90);
}

TEST(PriceReport, EveryModeSameRevenue) {
  OwnedLoop loop;
  WorkerPool pool(loop.get(), kReportPoolWorkers);
  const std::uint64_t rows = 1'000'003;
  PriceReport expected = expected_price_report(rows);
  for (const auto& name : report_mode_names()) {
    for (int concurrent : {1, 3}) {
      ReportJob job{loop.get(), report_mode(name), rows, 99'991, concurrent, &pool, {}};
      run_until_finished(loop.get(), start_reports(job));
      ASSERT_EQ(job.requests.size(), static_cast<std::size_t>(concurrent));
      for (const auto& r : job.requests) {
        EXPECT_EQ(r.report, expected) << name << " × " << concurrent;
        if (job.mode == ReportMode::chunked) {
          EXPECT_EQ(r.slices, 11u);
        }
      }
    }
  }
}

TEST(PriceReport, ChunkedBoundsTheWaitToAboutOneSlice) {
  OwnedLoop loop;
  StallSession session(loop.get());
  const std::uint64_t rows = 40'000'000;
  auto run = [&](ReportMode mode, std::uint64_t chunk) {
    ReportJob job{loop.get(), mode, rows, chunk, 1, nullptr, {}};
    SessionRecord r = session.run(start_reports(job));
    EXPECT_EQ(job.requests.at(0).report, expected_price_report(rows));
    EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
    return std::make_pair(r, job.requests.at(0).slice_max_ms);
  };
  auto [in_line, unused] = run(ReportMode::inline_on_loop, 0);
  auto [chunked, slice_max] = run(ReportMode::chunked, rows / 20);
  (void)unused;
  EXPECT_GE(in_line.instruments.stall.max, in_line.work_ms());
  // Twenty slices: the longest stall is a fraction of inline's ...
  EXPECT_LT(chunked.instruments.stall.max, in_line.instruments.stall.max / 2);
  // ... and a /health request waits for about one slice (the one it arrived during, then its
  // turn), far less than inline. The slack is for a shared machine descheduling the loop thread.
  EXPECT_LE(chunked.health.latency().max, 2 * slice_max + 20);
  EXPECT_LT(chunked.health.latency().max, in_line.health.latency().max / 2);
}
