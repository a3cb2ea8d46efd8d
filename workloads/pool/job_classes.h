// The job classes a real service puts on libuv's pool, each runnable many times side by side and
// each checking its own answer. CPU: pbkdf2, scrypt, deflate. Fast I/O: a whole-file read (open,
// fstat, read, close: four trips through the queue, as fs.readFile makes) and a stat. Slow I/O:
// getaddrinfo and getnameinfo of what the hosts file lists, which libuv caps at (threads+1)/2
// running at once. Every job reports how long each of its steps held a pool thread.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stallbench {

enum class PoolKind { cpu, fast_io, slow_io };

struct JobClassInfo {
  std::string name;          // as written in a mix: pbkdf2, scrypt, deflate, read, stat, lookup, reverse
  PoolKind kind;
  std::string size_meaning;  // what SIZE in CLASS:RATE:SIZE sets; empty when the class takes none
  std::int64_t default_size;
  std::int64_t min_size, max_size;
  std::string doc;
  // A job is one trip through libuv's main queue, so its wait for its first thread is its whole
  // wait: not a read (four trips), not a lookup (the slow-I/O queue after the main one).
  bool first_wait_is_whole_wait;
};

const std::vector<JobClassInfo>& job_class_catalogue();
const JobClassInfo* find_job_class(const std::string& name);  // nullptr when unknown
std::string job_class_names();                                 // "pbkdf2, scrypt, ..." for messages

struct JobResult {
  std::vector<double> step_service_ms;  // how long each step held a pool thread
  std::uint64_t completed_ns = 0;       // uv_hrtime on the loop thread when the job's last callback ran
  std::string error;                    // a failed step or a wrong answer; empty when right
  bool cancelled = false;               // uv_cancel took a step off the queue before it ran

  double service_ms() const;
};
using JobDone = std::function<void(JobResult result)>;

// Where a job's queued request is, so a driver can cancel what has not started when a run ends.
// The job keeps it current; it must outlive the job.
struct JobHandle {
  uv_req_t* queued = nullptr;
};

class JobClass {
 public:
  explicit JobClass(const JobClassInfo& info) : info_(info) {}
  virtual ~JobClass() = default;
  const JobClassInfo& info() const { return info_; }
  // Submits one job; `done` runs on the loop thread when it is over.
  virtual void submit(uv_loop_t* loop, JobHandle& handle, JobDone done) = 0;
  // Of each job's time on a thread, how much is spent waiting rather than computing (a held lookup).
  virtual double held_ms() const { return 0; }

 private:
  const JobClassInfo& info_;
};

// Prepares a class at `size` (its inputs and the reference answer every job must reproduce);
// throws std::invalid_argument for an unknown class or a size out of range.
std::unique_ptr<JobClass> make_job_class(const std::string& name, std::int64_t size);

}  // namespace stallbench
