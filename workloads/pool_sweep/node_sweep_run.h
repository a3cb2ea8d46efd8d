// The pool-sweep mix run by Node itself (node/open_loop.js), for the open-loop benchmark's
// runtime=node@LINE cells: the same seeded arrivals as the C++ runner, executed by Node's own
// crypto, zlib, fs and dns at this process's pool size (the child inherits UV_THREADPOOL_SIZE).
// Node calibrates each class alone itself; the machine's calibration (free cores, busy-cores delay)
// is this process's, around the Node run. JavaScript sees a job's latency only, and the model is
// fed each class's alone latency per trip through the pool. With the pool canary addon
// (canary_addon_path.h) a canary is queued before every job, as the C++ runner does: every class
// gets its first wait for a thread (pool_wait), and a class whose first wait is its whole wait
// gets the split of latency into queue wait and service; without the addon, latency only.
#pragma once

#include <uv.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../common/temp_file.h"
#include "mix.h"
#include "sweep_run.h"

namespace stallbench {

class NodeMixRunner {
 public:
  // Throws std::invalid_argument for a class Node cannot run as the C++ runner does (a lookup held
  // by the resolver: Node's dns.lookup has no such knob) and std::runtime_error when the hosts file
  // cannot answer the lookups.
  NodeMixRunner(uv_loop_t* loop, const Mix& mix, int threads, std::string node);

  // Throws std::runtime_error when Node fails or a job answered wrongly.
  SweepRun run(double window_s, std::uint64_t seed);

  // Whether this build has the canary addon, without which Node rows have latency only.
  bool has_canary() const { return !canary_.empty(); }

 private:
  // Throws std::runtime_error when Node's answer for class i is not the right one, where the right
  // one is known here: pbkdf2's key (derived in C++), the bytes read, the stat size, a loopback
  // address, the hosts file's name for 127.0.0.1. scrypt and deflate are checked inside Node: every
  // job's answer must equal the first alone job's.
  void check_answer(std::size_t i, const nlohmann::json& answer) const;

  uv_loop_t* loop_;
  Mix mix_;
  int threads_;
  std::string node_;
  std::string canary_;                            // the addon's path; "" when this build has none
  std::vector<std::unique_ptr<TempFile>> files_;  // per class: what a read reads (stat: any file)
  std::string reverse_name_;                      // what the hosts file says 127.0.0.1 is
  std::vector<std::string> pbkdf2_keys_;          // per class: the C++ key of a pbkdf2 class, else empty
};

}  // namespace stallbench
