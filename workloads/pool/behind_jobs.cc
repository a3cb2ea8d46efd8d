#include "behind_jobs.h"

#include "../common/uv_clock.h"

namespace stallbench {

BehindJobsResult run_behind_jobs(uv_loop_t* loop, const std::string& job_name, int jobs, const SubmitJob& submit_job,
                                 const std::vector<Probe>& probes) {
  BehindJobsResult result;
  result.job_done_ms.assign(jobs, 0.0);
  result.probe_done_ms.assign(probes.size(), 0.0);
  int outstanding = jobs + static_cast<int>(probes.size());
  double start_ms = hrtime_ms();
  auto arrived = [&](const std::string& what, int index, const std::string& label, const std::string& error) {
    double at = hrtime_ms() - start_ms;
    result.order.push_back({what, index, at});
    if (!error.empty()) result.errors.push_back(label + ": " + error);
    if (--outstanding == 0) uv_stop(loop);
    return at;
  };
  for (int i = 0; i < jobs; ++i)
    submit_job(i, [&, i](const std::string& error) {
      result.job_done_ms[i] = arrived(job_name, i, job_name + " " + std::to_string(i), error);
    });
  for (std::size_t p = 0; p < probes.size(); ++p)
    probes[p].issue([&, p](const std::string& error) {
      result.probe_done_ms[p] = arrived(probes[p].name, 0, probes[p].name, error);
    });
  uv_run(loop, UV_RUN_DEFAULT);  // returns at once when everything failed to start: uv_stop was called
  if (outstanding != 0) result.errors.push_back("loop stopped with work outstanding");
  return result;
}

}  // namespace stallbench
