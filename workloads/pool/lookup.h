// dns.lookup and dns.lookupService as Node does them: getaddrinfo and getnameinfo on libuv's
// pool, where they count as "slow I/O" (at most (threads+1)/2 run at once). Only names and
// addresses the hosts file lists are accepted, and only while the system consults the hosts file
// before DNS, so a lookup can never reach a real resolver, even by a typo.
#pragma once

#include <uv.h>

#include <functional>
#include <string>
#include <vector>

#include "resolver_timing.h"

namespace stallbench {

struct HostsEntry {
  std::string address;
  std::vector<std::string> names;  // lower-cased, in file order
};

// The entries of `hosts_path` (default /etc/hosts), comments dropped.
std::vector<HostsEntry> hosts_file_entries(const std::string& hosts_path = "/etc/hosts");

// The names in `hosts_path`, lower-cased.
std::vector<std::string> hosts_file_names(const std::string& hosts_path = "/etc/hosts");

// Throws std::invalid_argument unless `name` is listed in the hosts file.
void require_hosts_file_name(const std::string& name, const std::string& hosts_path = "/etc/hosts");

// Throws std::invalid_argument unless the `hosts:` line of `nsswitch_path` lists `files` before
// `dns` (without the file, glibc asks DNS first).
void require_files_before_dns(const std::string& nsswitch_path = "/etc/nsswitch.conf");

// The first name the hosts file gives `address` (what getnameinfo answers); throws
// std::invalid_argument when the file does not list the address.
std::string hosts_file_name_of(const std::string& address, const std::string& hosts_path = "/etc/hosts");

bool is_loopback(const std::string& address);

// `done` runs on the loop thread with the first address found (numeric), or an error text.
// With `timing`, the pool thread records in it when getaddrinfo ran (and holds the thread
// timing->hold first). Returns the request, which uv_cancel can take off the queue until a
// thread picks it up (nullptr when it failed at once and `done` already ran).
using LookupDone = std::function<void(std::string address, std::string error)>;
uv_req_t* lookup(uv_loop_t* loop, const std::string& name, LookupDone done, ResolverCall* timing = nullptr);

// getnameinfo(address) with NI_NAMEREQD: `done` gets the host name, or an error text.
using ReverseLookupDone = std::function<void(std::string host, std::string error)>;
uv_req_t* reverse_lookup(uv_loop_t* loop, const std::string& address, ReverseLookupDone done,
                         ResolverCall* timing = nullptr);

// lookup() and reverse_lookup() without their checks, for a caller that made them once for a
// fixed name or address (require_files_before_dns, then require_hosts_file_name or
// hosts_file_name_of): the checks read two files on the loop thread, tens of microseconds that a
// job class submitting thousands of lookups would add to every measured latency.
uv_req_t* lookup_prechecked(uv_loop_t* loop, const std::string& name, LookupDone done, ResolverCall* timing);
uv_req_t* reverse_lookup_prechecked(uv_loop_t* loop, const std::string& address, ReverseLookupDone done,
                                    ResolverCall* timing);

}  // namespace stallbench
