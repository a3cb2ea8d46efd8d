// The seed's three ways to run the report, plus its ★★★ exercise (the `mode` parameter):
//
//   inline       buildPriceReport on the loop: the loop is blocked until it returns
//   chunked      buildPriceReportChunked: `chunk` rows per slice, yielding like
//                `await setImmediate()` between slices
//   worker       buildPriceReportInWorker: a new thread per request, the answer posted back
//   worker-pool  a fixed pool of 2 worker threads started with the cell, requests queued to it
//
// `concurrent` requests are started at the same moment; the work is finished when all are.
#pragma once

#include <uv.h>

#include <string>
#include <vector>

#include "../stall/offload.h"
#include "../stall/stall_session.h"
#include "price_report.h"

namespace stallbench {

enum class ReportMode { inline_on_loop, chunked, worker, worker_pool };

inline constexpr int kReportPoolWorkers = 2;  // the seed's exercise: "two workers"

const std::vector<std::string>& report_mode_names();
ReportMode report_mode(const std::string& name);  // throws std::invalid_argument

struct ReportRequest {
  PriceReport report;
  double done_ms = 0;       // since the requests were started
  double slice_max_ms = 0;  // chunked: the longest slice (the bound on a stall it causes)
  std::size_t slices = 0;
};

struct ReportJob {
  uv_loop_t* loop;
  ReportMode mode;
  std::uint64_t rows;
  std::uint64_t chunk = 0;      // chunked
  int concurrent = 1;
  WorkerPool* pool = nullptr;   // worker-pool
  std::vector<ReportRequest> requests;  // filled as they finish
};

// The requests as a StartWork, for StallSession::run. `job` must outlive it.
StartWork start_reports(ReportJob& job);

}  // namespace stallbench
