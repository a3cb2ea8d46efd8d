// dns.lookup as Node does it: getaddrinfo on libuv's pool, where it counts as "slow I/O" (at most
// (threads+1)/2 run at once). Only names the hosts file resolves are accepted, so a lookup can
// never reach a real resolver, even by a typo.
#pragma once

#include <uv.h>

#include <functional>
#include <string>
#include <vector>

namespace stallbench {

// The names in `hosts_path` (default /etc/hosts), lower-cased.
std::vector<std::string> hosts_file_names(const std::string& hosts_path = "/etc/hosts");

// Throws std::invalid_argument unless `name` is listed in the hosts file.
void require_hosts_file_name(const std::string& name, const std::string& hosts_path = "/etc/hosts");

bool is_loopback(const std::string& address);

// `done` runs on the loop thread with the first address found (numeric), or an error text.
using LookupDone = std::function<void(std::string address, std::string error)>;
void lookup(uv_loop_t* loop, const std::string& name, LookupDone done);

}  // namespace stallbench
