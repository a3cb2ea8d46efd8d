#include "saturation_node.h"

#include <openssl/evp.h>

#include <stdexcept>

#include "../common/node_process.h"
#include "lookup.h"

#ifndef STALLBENCH_POOL_NODE_DIR
#error "STALLBENCH_POOL_NODE_DIR must name workloads/pool/node (set by CMake)"
#endif

namespace stallbench {
namespace {

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_Digest(sha256) failed");
  return to_hex(Key(digest, digest + length));
}

}  // namespace

NodeSaturationResult run_saturation_in_node(const std::string& node, const SaturationConfig& config,
                                            const std::string& client, const std::string& canary_addon) {
  std::vector<std::string> args{std::string(STALLBENCH_POOL_NODE_DIR) + "/saturation.js", std::to_string(config.jobs),
                                std::to_string(config.pbkdf2.iterations), std::string(digest_name(config.pbkdf2.digest)),
                                client, config.file_path};
  if (!canary_addon.empty()) args.push_back(canary_addon);
  auto j = run_node_json(node, args);
  NodeSaturationResult r;
  r.pbkdf2_done_ms = j.at("pbkdf2_done_ms").get<std::vector<double>>();
  r.fs_ms = j.at("fs_latency_ms");
  r.dns_ms = j.at("dns_latency_ms");
  r.tcp_ms = j.at("tcp_latency_ms");
  r.resolve4_ms = j.at("resolve4_latency_ms");
  r.alone_ms = j.at("pbkdf2_alone_ms");
  r.tcp_alone_ms = j.at("tcp_alone_ms");
  r.keys_hex = j.at("keys").get<std::vector<std::string>>();
  r.file_sha256 = j.at("file_sha256");
  r.address = j.at("address");
  r.resolve4 = j.at("resolve4");
  r.http = j.at("http").get<std::vector<std::string>>();
  r.completions = j.at("order").size();
  if (j.contains("fs_queue_wait_ms")) {
    r.fs_wait_ms = j.at("fs_queue_wait_ms").get<double>();
    r.dns_wait_ms = j.at("dns_queue_wait_ms").get<double>();
  }
  return r;
}

std::vector<std::string> check_node_saturation(const NodeSaturationResult& r, const SaturationConfig& config,
                                               const Key& expected_key, const std::string& expected_bytes) {
  std::vector<std::string> problems;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  expect(r.completions == static_cast<std::size_t>(config.jobs) + 4,
         "expected " + std::to_string(config.jobs + 4) + " completions, saw " + std::to_string(r.completions));
  expect(r.pbkdf2_done_ms.size() == static_cast<std::size_t>(config.jobs), "a pbkdf2 completion is missing");
  for (const auto& key : r.keys_hex)
    expect(key == to_hex(expected_key), "Node derived " + key + ", C++ " + to_hex(expected_key));
  expect(r.file_sha256 == sha256_hex(expected_bytes), "Node's file read returned other bytes than the file's");
  expect(is_loopback(r.address), "Node's lookup of " + config.host + " gave '" + r.address + "', not loopback");
  for (const auto& response : r.http) expect(response == "200 ok", "Node's HTTP request returned '" + response + "'");
  expect(r.resolve4 == "127.0.0.1", "resolve4 against our DNS server answered '" + r.resolve4 + "'");
  return problems;
}

}  // namespace stallbench
