// A probe behind N pool jobs, the shape of seed 000's experiment and of nodejs/node#8436: N jobs
// go to libuv's pool and, in the same synchronous block (as a request handler would issue them),
// one or more probes (a file read, a lookup, an HTTP request); every completion is recorded as the
// loop thread sees it, which is when Node would call the JavaScript callback. The jobs and the
// probes are callbacks: a new probe behind pbkdf2 (uv_fs_stat, say) is one more Probe, not a copy
// of the experiment.
#pragma once

#include <uv.h>

#include <functional>
#include <string>
#include <vector>

namespace stallbench {

// Called on the loop thread, once, when a job or probe is done: empty `error` when it went well.
// A job or probe keeps its own answer (a key, the bytes read) before calling it.
using Finished = std::function<void(const std::string& error)>;

// Submits job number `index`; calls `finished` when it completes.
using SubmitJob = std::function<void(int index, Finished finished)>;

struct Probe {
  std::string name;                      // what its completion is called: "fs", "dns", "tcp"
  std::function<void(Finished)> issue;   // starts it; it calls Finished when it completes
};

struct Completion {
  std::string what;  // the job name or the probe's
  int index;         // the job's number, 0 for a probe
  double at_ms;      // since the moment the jobs were submitted
};

struct BehindJobsResult {
  std::vector<double> job_done_ms;    // by job, in submission order
  std::vector<double> probe_done_ms;  // by probe, in the order given
  std::vector<Completion> order;      // everything, in the order the loop saw it complete
  std::vector<std::string> errors;    // "pbkdf2 3: ...", "fs: ...": empty when all went well
};

// Submits `jobs` jobs called `job_name`, then issues every probe, and runs the loop until all of
// them have completed: the loop is stopped at the last completion, so a handle that keeps it alive
// (a server on the same loop) does not hold it.
BehindJobsResult run_behind_jobs(uv_loop_t* loop, const std::string& job_name, int jobs, const SubmitJob& submit_job,
                                 const std::vector<Probe>& probes);

}  // namespace stallbench
