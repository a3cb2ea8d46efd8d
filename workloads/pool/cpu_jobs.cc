// The CPU classes: each job derives or compresses on a pool thread and compares its answer with
// the reference computed once when the class was prepared.
#include <memory>

#include "deflate_job.h"
#include "job_class_parts.h"
#include "pbkdf2_job.h"
#include "scrypt_job.h"

namespace stallbench {
namespace {

// `compute` runs on the pool thread; its result must equal the reference it gave at preparation.
template <typename Compute>
class CpuJobClass : public JobClass {
 public:
  CpuJobClass(const JobClassInfo& info, Compute compute)
      : JobClass(info), compute_(std::move(compute)), reference_(compute_()) {}

  void submit(uv_loop_t* loop, JobHandle& handle, JobDone done) override {
    submit_one_step(loop, handle, [this]() -> std::string {
      return compute_() == reference_ ? "" : info().name + " produced a different answer than the reference";
    }, std::move(done));
  }

 private:
  Compute compute_;
  decltype(compute_()) reference_;
};

template <typename Compute>
std::unique_ptr<JobClass> cpu_class(const JobClassInfo& info, Compute compute) {
  return std::make_unique<CpuJobClass<Compute>>(info, std::move(compute));
}

}  // namespace

std::unique_ptr<JobClass> make_pbkdf2_class(const JobClassInfo& info, std::int64_t iterations) {
  Pbkdf2Params params;
  params.iterations = static_cast<int>(iterations);
  return cpu_class(info, [params] { return pbkdf2(params); });
}

std::unique_ptr<JobClass> make_scrypt_class(const JobClassInfo& info, std::int64_t cost) {
  if ((cost & (cost - 1)) != 0)
    throw std::invalid_argument("scrypt cost " + std::to_string(cost) + " is not a power of two");
  ScryptParams params;
  params.cost = static_cast<std::uint64_t>(cost);
  return cpu_class(info, [params] { return scrypt(params); });
}

std::unique_ptr<JobClass> make_deflate_class(const JobClassInfo& info, std::int64_t bytes) {
  auto input = std::make_shared<const std::string>(compressible_text(static_cast<std::size_t>(bytes)));
  if (!deflate_round_trips(*input)) throw std::runtime_error("zlib: compressed text does not inflate back to itself");
  return cpu_class(info, [input] { return deflate_text(*input); });
}

}  // namespace stallbench
