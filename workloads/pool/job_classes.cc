#include "job_classes.h"

#include <numeric>
#include <stdexcept>

#include "job_class_parts.h"

namespace stallbench {

const std::vector<JobClassInfo>& job_class_catalogue() {
  static const std::vector<JobClassInfo> catalogue = {
      {"pbkdf2", PoolKind::cpu, "iterations", 100'000, 1, 100'000'000,
       "crypto.pbkdf2: PKCS5_PBKDF2_HMAC sha256, 32-byte key", true},
      {"scrypt", PoolKind::cpu, "cost N (a power of two)", 16'384, 2, 131'072,
       "crypto.scrypt: EVP_PBE_scrypt r=8 p=1, 64-byte key (128*8*N bytes of memory per job)", true},
      {"deflate", PoolKind::cpu, "bytes", 131'072, 1, 64 << 20, "zlib.deflate: level 6 of response-like text", true},
      {"read", PoolKind::fast_io, "bytes", 65'536, 1, 16 << 20,
       "fs.readFile: open, fstat, read (512 KiB at a time), close, each a trip through the pool", false},
      {"stat", PoolKind::fast_io, "", 0, 0, 0, "fs.stat of a file", true},
      {"lookup", PoolKind::slow_io, "ms the resolver holds the thread", 0, 0, 10'000,
       "dns.lookup('localhost'): getaddrinfo from the hosts file, optionally held like a slow DNS server", false},
      {"reverse", PoolKind::slow_io, "ms the resolver holds the thread", 0, 0, 10'000,
       "dns.lookupService('127.0.0.1'): getnameinfo from the hosts file, optionally held", false},
  };
  return catalogue;
}

const JobClassInfo* find_job_class(const std::string& name) {
  for (const auto& info : job_class_catalogue())
    if (info.name == name) return &info;
  return nullptr;
}

std::string job_class_names() {
  std::string names;
  for (const auto& info : job_class_catalogue()) names += (names.empty() ? "" : ", ") + info.name;
  return names;
}

double JobResult::service_ms() const { return std::accumulate(step_service_ms.begin(), step_service_ms.end(), 0.0); }

std::unique_ptr<JobClass> make_job_class(const std::string& name, std::int64_t size) {
  const JobClassInfo* info = find_job_class(name);
  if (info == nullptr) throw std::invalid_argument("unknown job class '" + name + "' (valid: " + job_class_names() + ")");
  if (size < info->min_size || size > info->max_size)
    throw std::invalid_argument(name + " size " + std::to_string(size) + " is out of range: valid " + info->size_meaning +
                                " are " + std::to_string(info->min_size) + "-" + std::to_string(info->max_size));
  if (name == "pbkdf2") return make_pbkdf2_class(*info, size);
  if (name == "scrypt") return make_scrypt_class(*info, size);
  if (name == "deflate") return make_deflate_class(*info, size);
  if (name == "read") return make_read_class(*info, size);
  if (name == "stat") return make_stat_class(*info);
  if (name == "lookup") return make_lookup_class(*info, size);
  return make_reverse_class(*info, size);
}

void submit_one_step(uv_loop_t* loop, JobHandle& handle, StepWork work, JobDone done) {
  handle.queued = queue_timed_step(loop, std::move(work),
                                   [&handle, done = std::move(done)](const StepTiming& t, std::string error, bool cancelled) {
                                     handle.queued = nullptr;
                                     done(JobResult{{t.service_ms()}, t.completed_ns, std::move(error), cancelled});
                                   });
}

}  // namespace stallbench
