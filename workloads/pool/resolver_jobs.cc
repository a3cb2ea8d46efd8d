// The slow-I/O classes: getaddrinfo("localhost") and getnameinfo of 127.0.0.1, both answered
// from the hosts file (lookup.h refuses anything else). Each can hold its pool thread for a set
// time inside the call (resolver_timing.h), which is how a slow DNS server looks to the pool:
// with it, libuv's cap of (threads+1)/2 concurrent lookups becomes visible in a sweep.
#include <chrono>
#include <memory>
#include <stdexcept>

#include "job_class_parts.h"
#include "lookup.h"
#include "resolver_timing.h"

namespace stallbench {
namespace {

using Resolve = uv_req_t* (*)(uv_loop_t*, const std::string&, std::function<void(std::string, std::string)>, ResolverCall*);

class ResolverClass : public JobClass {
 public:
  ResolverClass(const JobClassInfo& info, std::int64_t hold_ms, Resolve resolve, std::string query, std::string expect)
      : JobClass(info), hold_(std::chrono::milliseconds(hold_ms)), resolve_(resolve), query_(std::move(query)),
        expect_(std::move(expect)) {
    if (!resolver_calls_are_timed())
      throw std::runtime_error("getaddrinfo/getnameinfo cannot be timed in this program (resolver_timing.h)");
  }

  double held_ms() const override { return std::chrono::duration<double, std::milli>(hold_).count(); }

  void submit(uv_loop_t* loop, JobHandle& handle, JobDone done) override {
    auto call = std::make_shared<ResolverCall>();
    call->hold = hold_;
    uv_req_t* req = resolve_(loop, query_, [this, call, &handle, done = std::move(done)](std::string answer, std::string error) {
      handle.queued = nullptr;
      JobResult result;
      result.completed_ns = uv_hrtime();
      result.cancelled = error.find(uv_strerror(UV_EAI_CANCELED)) != std::string::npos;
      bool ran = call->started_ns != 0;
      result.step_service_ms = {ran ? static_cast<double>(call->finished_ns - call->started_ns) / 1e6 : 0.0};
      if (!result.cancelled) {
        if (!error.empty()) result.error = std::move(error);
        else if (!ran) result.error = info().name + ": the resolver call was not timed";
        else if (!matches(answer)) result.error = info().name + " of " + query_ + " answered '" + answer + "'";
      }
      done(std::move(result));
    }, call.get());
    if (req != nullptr) handle.queued = req;  // nullptr: it failed at once and `done` has run
  }

 private:
  bool matches(const std::string& answer) const { return expect_.empty() ? is_loopback(answer) : answer == expect_; }

  std::chrono::nanoseconds hold_;
  Resolve resolve_;
  std::string query_, expect_;  // expect_ empty: any loopback address
};

}  // namespace

std::unique_ptr<JobClass> make_lookup_class(const JobClassInfo& info, std::int64_t hold_ms) {
  require_files_before_dns();
  require_hosts_file_name("localhost");
  return std::make_unique<ResolverClass>(info, hold_ms, &lookup_prechecked, "localhost", "");
}

std::unique_ptr<JobClass> make_reverse_class(const JobClassInfo& info, std::int64_t hold_ms) {
  require_files_before_dns();
  std::string name = hosts_file_name_of("127.0.0.1");
  return std::make_unique<ResolverClass>(info, hold_ms, &reverse_lookup_prechecked, "127.0.0.1", name);
}

}  // namespace stallbench
