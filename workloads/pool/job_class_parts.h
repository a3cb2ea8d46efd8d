// Inside the job classes: the factories make_job_class dispatches to, and the one-step
// submission the single-step classes share.
#pragma once

#include "job_classes.h"
#include "pool_step.h"

namespace stallbench {

std::unique_ptr<JobClass> make_pbkdf2_class(const JobClassInfo& info, std::int64_t iterations);
std::unique_ptr<JobClass> make_scrypt_class(const JobClassInfo& info, std::int64_t cost);
std::unique_ptr<JobClass> make_deflate_class(const JobClassInfo& info, std::int64_t bytes);
std::unique_ptr<JobClass> make_read_class(const JobClassInfo& info, std::int64_t bytes);
std::unique_ptr<JobClass> make_stat_class(const JobClassInfo& info);
std::unique_ptr<JobClass> make_lookup_class(const JobClassInfo& info, std::int64_t hold_ms);
std::unique_ptr<JobClass> make_reverse_class(const JobClassInfo& info, std::int64_t hold_ms);

// A job of one timed step: `work` runs on a pool thread and returns what went wrong, if anything.
void submit_one_step(uv_loop_t* loop, JobHandle& handle, StepWork work, JobDone done);

}  // namespace stallbench
