// Family `report`: seed 000's price report (VAT-inclusive revenue and mean unit price over
// 20,000,000 synthetic order rows) run inline, chunked, on a new worker thread per request and
// on a pool of two workers, with 1 or 5 requests at once, while the /health probe polls the
// server on the same loop. Every request's report is compared with the closed-form answer, so
// all modes are checked to produce the same revenue to the cent.
//
// `meters` calibrates the instruments the families rely on: busy stalls of known length sized
// by the exact meter and by the 10 ms delay monitor, and the instruments' CPU cost on an idle loop.
#include <uv.h>

#include <algorithm>
#include <memory>

#include "../workloads/common/owned_loop.h"
#include "../workloads/common/uv_clock.h"
#include "../workloads/stall/calibration.h"
#include "../workloads/report/report_modes.h"
#include "harness/harness.h"
#include "session_metrics.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

struct ReportCell {
  OwnedLoop loop;
  StallSession session{loop.get()};
  std::unique_ptr<WorkerPool> pool;
  ReportJob job{};
  PriceReport expected;

  double repetition(Counters& out) {
    SessionRecord record = session.run(start_reports(job));
    std::vector<double> done, slices;
    double slice_max = 0;
    for (const auto& r : job.requests) {
      if (r.report != expected)
        throw std::runtime_error("a " + report_mode_names()[static_cast<int>(job.mode)] + " report gave " +
                                 r.report.describe() + "; expected " + expected.describe());
      done.push_back(r.done_ms);
      slice_max = std::max(slice_max, r.slice_max_ms);
    }
    report_session(out, record);
    out.set("total_ms", record.work_ms());
    out.series("report_done_ms", done);
    out.set("revenue", expected.revenue());
    if (job.mode == ReportMode::chunked) out.set("slice_max_ms", slice_max);
    return record.work_ms();
  }
};

Repetition make_report(const Cell& cell) {
  auto state = std::make_shared<ReportCell>();
  state->job.loop = state->loop.get();
  state->job.mode = report_mode(cell.text("mode"));
  state->job.rows = static_cast<std::uint64_t>(cell.integer("rows"));
  state->job.chunk = static_cast<std::uint64_t>(cell.integer("chunk"));
  state->job.concurrent = static_cast<int>(cell.integer("concurrent"));
  if (state->job.mode == ReportMode::worker_pool) {
    state->pool = std::make_unique<WorkerPool>(state->loop.get(), kReportPoolWorkers);
    state->job.pool = state->pool.get();
  }
  state->expected = expected_price_report(state->job.rows);
  return [state](Counters& out) { return state->repetition(out); };
}

Benchmark price_report() {
  return {
      .name = "price-report",
      .doc = "The seed's price report inline, chunked (yielding between slices), on a new thread per request or "
             "a pool of 2 workers, with 1 or 5 requests at once; /health polled every 20 ms meanwhile.",
      .params =
          {
              {.name = "mode", .values = report_mode_names(), .smoke = report_mode_names(), .choices = report_mode_names(),
               .doc = "inline | chunked | worker (new thread per request) | worker-pool (2 threads)"},
              {.name = "chunk", .values = {"0", "50000", "250000", "2000000"}, .smoke = {"0", "250000"},
               .range = {{0, 1'000'000'000}}, .doc = "rows per slice for chunked (seed: 250,000); 0 for the other modes"},
              {.name = "rows", .values = {"20000000"}, .smoke = {"2000000"}, .full = {"20000000", "100000000"},
               .range = {{1, 10'000'000'000}}, .doc = "order rows per report (seed: 20,000,000)"},
              {.name = "concurrent", .values = {"1", "5"}, .smoke = {"1"}, .range = {{1, 64}},
               .doc = "report requests started at once (seed exercise: 5); more than 1 only for the worker modes"},
          },
      .metrics = with_session_metrics({
          {.name = "total_ms", .unit = "ms", .doc = "from starting the requests until the last report was on the loop"},
          {.name = "slice_max_ms", .unit = "ms", .tracked = false, .doc = "chunked: the longest slice"},
          {.name = "report_done_ms", .unit = "ms", .tracked = false, .doc = "when each request's report arrived"},
          {.name = "revenue", .unit = "currency", .tracked = false, .doc = "the report's VAT-inclusive revenue (checked)"},
      }),
      .timeout_s = 120,
      .make = make_report,
      .valid =
          [](const Cell& cell) {
            ReportMode mode = report_mode(cell.text("mode"));
            bool workers = mode == ReportMode::worker || mode == ReportMode::worker_pool;
            return (cell.integer("chunk") > 0) == (mode == ReportMode::chunked) &&
                   (cell.integer("concurrent") == 1 || workers);
          },
  };
}

Repetition make_meters(const Cell& cell) {
  double stall = static_cast<double>(cell.integer("stall"));
  double resolution = static_cast<double>(cell.integer("resolution"));
  double idle_s = static_cast<double>(cell.integer("idle_ms")) / 1e3;
  return [=](Counters& out) {
    std::uint64_t t0 = uv_hrtime();
    Calibration c = calibrate_meters(stall, 5, resolution);
    std::vector<double> errors;
    for (std::size_t i = 0; i < c.injected_ms.size(); ++i) errors.push_back(c.sized_ms[i] - c.injected_ms[i]);
    auto worst = *std::max_element(errors.begin(), errors.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    out.series("stall_injected_ms", c.injected_ms);
    out.series("stall_sized_ms", c.sized_ms);
    out.set("stall_error_ms", worst);
    out.set("loop_delay_max_ms", c.monitor.max);
    out.set("loop_delay_p50_ms", c.monitor.p50);
    out.set("instrument_cpu_pct", 100 * instruments_idle_cost(resolution, idle_s));
    return ms_since(t0);
  };
}

Benchmark meters() {
  return {
      .name = "meters",
      .doc = "Busy stalls of known length sized by the exact stall meter and by the delay monitor; the "
             "instruments' CPU cost on an idle loop.",
      .params = {{.name = "stall", .values = {"2", "5", "20"}, .smoke = {"2"}, .range = {{1, 1000}},
                  .doc = "ms of busy-wait per injected stall (5 per repetition)"},
                 {.name = "resolution", .values = {"10"}, .range = {{1, 1000}}, .doc = "the delay monitor's timer, ms"},
                 {.name = "idle_ms", .values = {"500"}, .smoke = {"200"}, .full = {"2000"}, .range = {{50, 60'000}},
                  .doc = "idle stretch over which the instruments' cost is measured"}},
      .metrics = {{.name = "stall_error_ms", .unit = "ms", .doc = "exact meter: worst (sized - injected) of the 5 stalls"},
                  {.name = "stall_injected_ms", .unit = "ms", .tracked = false, .doc = "each busy-wait's own wall time"},
                  {.name = "stall_sized_ms", .unit = "ms", .tracked = false, .doc = "the exact meter's size of each"},
                  {.name = "loop_delay_max_ms", .unit = "ms", .doc = "delay monitor: the largest gap it saw"},
                  {.name = "loop_delay_p50_ms", .unit = "ms", .tracked = false, .doc = "delay monitor: median gap"},
                  {.name = "instrument_cpu_pct", .unit = "%", .doc = "loop-thread CPU added by the three instruments, idle loop"}},
      .timeout_s = 120,
      .make = make_meters,
  };
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv,
                  {.name = "report",
                   .doc = "a CPU-bound price report inline vs chunked vs worker threads, with a /health probe",
                   .benchmarks = {price_report(), meters()},
                   .versions = {{"libuv", uv_version_string()}}});
}
