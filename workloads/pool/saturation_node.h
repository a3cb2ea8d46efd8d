// Seed 000's pool experiment run by Node itself (node/saturation.js), for the pool family's
// runtime=node@LINE cells: the same jobs, file read, lookup and HTTP request as run_saturation,
// plus a dns.Resolver.resolve4 against a DNS server in the script on 127.0.0.1 (c-ares on the loop
// thread, no pool). Given the pool canary addon (workloads/probe), the script queues a canary just
// before the read and the lookup, as run_saturation does in C++, and reports their waits for a thread.
// The child inherits UV_THREADPOOL_SIZE and dies with this process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "saturation.h"

namespace stallbench {

struct NodeSaturationResult {
  std::vector<double> pbkdf2_done_ms;  // by job, in submission order
  double fs_ms = 0, dns_ms = 0, tcp_ms = 0, resolve4_ms = 0;
  double alone_ms = 0;      // one pbkdf2 alone on the idle pool, before the block
  double tcp_alone_ms = 0;  // the same request again with nothing else running
  std::optional<double> fs_wait_ms, dns_wait_ms;  // the canaries' waits; none without the addon
  // The answers, checked by check_node_saturation.
  std::vector<std::string> keys_hex;  // the alone job's key, then each job's
  std::string file_sha256, address, resolve4;
  std::vector<std::string> http;      // "200 ok" for the timed request and the alone one
  std::size_t completions = 0;
};

// Throws std::runtime_error when Node fails or prints no result.
// `client` is how the script makes its HTTP request: fetch (undici) or http.get. `canary_addon`:
// the pool canary's path (canary_addon_path()), or "" to run without it.
NodeSaturationResult run_saturation_in_node(const std::string& node, const SaturationConfig& config,
                                            const std::string& client, const std::string& canary_addon);

// What went wrong: every key must equal `expected_key` (the C++ pbkdf2 of the same inputs), the
// file's SHA-256 that of `expected_bytes`, the lookup a loopback address, both responses "200 ok",
// resolve4 "127.0.0.1". Empty when every answer is right.
std::vector<std::string> check_node_saturation(const NodeSaturationResult& result, const SaturationConfig& config,
                                               const Key& expected_key, const std::string& expected_bytes);

}  // namespace stallbench
