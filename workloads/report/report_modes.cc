#include "report_modes.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "../common/enum_names.h"
#include "../common/uv_clock.h"

namespace stallbench {

const std::vector<std::string>& report_mode_names() {
  static const std::vector<std::string> names = {"inline", "chunked", "worker", "worker-pool"};
  return names;
}

ReportMode report_mode(const std::string& name) { return enum_named<ReportMode>(report_mode_names(), name, "report mode"); }

namespace {

// One request: its report is computed in the job's mode; `done` runs on the loop thread.
void start_one(ReportJob& job, ReportRequest& request, Done done) {
  auto whole = [&job, &request] { request.report = build_price_report(job.rows); };
  switch (job.mode) {
    case ReportMode::inline_on_loop:
      return run_placed(job.loop, Placement::loop, nullptr, whole, done);
    case ReportMode::worker:
      return run_placed(job.loop, Placement::new_thread, nullptr, whole, done);
    case ReportMode::worker_pool:
      return run_placed(job.loop, Placement::worker_pool, job.pool, whole, done);
    case ReportMode::chunked:
      break;
  }
  if (job.chunk == 0) throw std::invalid_argument("chunked needs chunk > 0");
  auto next = std::make_shared<std::uint64_t>(0);
  run_in_slices(job.loop, [&job, &request, next] {
    std::uint64_t started = uv_hrtime();
    std::uint64_t end = std::min(*next + job.chunk, job.rows);
    add_rows(request.report, *next, end);
    *next = end;
    ++request.slices;
    request.slice_max_ms = std::max(request.slice_max_ms, ms_since(started));
    return *next >= job.rows;
  }, done);
}

}  // namespace

StartWork start_reports(ReportJob& job) {
  return [&job](Finished finished) {
    job.requests.assign(job.concurrent, ReportRequest{});
    auto outstanding = std::make_shared<int>(job.concurrent);
    auto failure = std::make_shared<std::exception_ptr>();
    std::uint64_t t0 = uv_hrtime();
    for (auto& request : job.requests) {
      start_one(job, request, [&request, t0, outstanding, failure, finished](std::exception_ptr error) {
        request.done_ms = ms_since(t0);
        if (error && !*failure) *failure = error;
        if (--*outstanding == 0) finished(*failure);
      });
    }
  };
}

}  // namespace stallbench
