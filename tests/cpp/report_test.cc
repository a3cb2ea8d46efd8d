// The price report: the closed form agrees with the row-by-row sum; every mode, one request or
// several at once, produces exactly that revenue; chunked gives the loop back after every slice,
// so /health is answered while the report is built, while inline holds it for the whole report.
#include <gtest/gtest.h>

#include "session_order.h"
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
    return std::make_pair(r, job.requests.at(0).slices);
  };
  SessionRecord in_line = run(ReportMode::inline_on_loop, 0).first;
  auto [chunked, slices] = run(ReportMode::chunked, rows / 20);
  // Inline: one iteration held the whole report, and every request sent during it waited for it.
  EXPECT_GE(in_line.instruments.stall.max, in_line.work_ms());
  RequestsDuringWork held = requests_during_work(in_line);
  EXPECT_GE(held.sent, 1u);
  EXPECT_EQ(held.answered_before, 0u);
  // Chunked: each of the twenty slices was an iteration of its own (2,000,000 rows take several
  // ms, over the meter's 1 ms threshold, and a busy machine only lengthens them), so a request
  // waits for the slice it arrived during, not the report: some were answered before it ended.
  EXPECT_EQ(slices, 20u);
  EXPECT_GE(stalls_during_work(chunked), slices);
  EXPECT_GE(requests_during_work(chunked).answered_before, 1u) << "no /health answered between slices";
}
