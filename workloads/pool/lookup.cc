#include "lookup.h"

#include <netdb.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace stallbench {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

std::vector<HostsEntry> hosts_file_entries(const std::string& hosts_path) {
  std::ifstream in(hosts_path);
  std::vector<HostsEntry> entries;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line.substr(0, line.find('#')));
    HostsEntry entry;
    if (!(fields >> entry.address)) continue;
    for (std::string name; fields >> name;) entry.names.push_back(lower(name));
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<std::string> hosts_file_names(const std::string& hosts_path) {
  std::vector<std::string> names;
  for (auto& entry : hosts_file_entries(hosts_path)) names.insert(names.end(), entry.names.begin(), entry.names.end());
  return names;
}

void require_hosts_file_name(const std::string& name, const std::string& hosts_path) {
  auto names = hosts_file_names(hosts_path);
  if (std::find(names.begin(), names.end(), lower(name)) == names.end())
    throw std::invalid_argument("refusing to look up '" + name + "': not in " + hosts_path +
                                " (lookups must never reach a real resolver)");
}

void require_files_before_dns(const std::string& nsswitch_path) {
  std::ifstream in(nsswitch_path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line.substr(0, line.find('#')));
    std::string database, source;
    if (!(fields >> database) || database != "hosts:") continue;
    while (fields >> source) {
      if (source == "files") return;
      if (source == "dns" || source == "resolve")
        throw std::invalid_argument(nsswitch_path + " asks " + source + " before the hosts file: refusing to "
                                    "look anything up (lookups must never reach a real resolver)");
    }
  }
  throw std::invalid_argument(nsswitch_path + " has no 'hosts: files ...' line: refusing to look anything up "
                              "(without it glibc asks DNS first)");
}

std::string hosts_file_name_of(const std::string& address, const std::string& hosts_path) {
  for (auto& entry : hosts_file_entries(hosts_path))
    if (entry.address == address && !entry.names.empty()) return entry.names.front();
  throw std::invalid_argument("refusing to look up " + address + ": not in " + hosts_path +
                              " (lookups must never reach a real resolver)");
}

bool is_loopback(const std::string& address) {
  return address.rfind("127.", 0) == 0 || address == "::1";
}

namespace {

// A lookup in flight: libuv's request, the callback, and the timing registration to undo.
template <typename Request, typename Done>
struct Resolving {
  Request req;
  Done done;
  const void* timing_key = nullptr;

  void register_timing(const void* key, ResolverCall* timing) {
    if (timing == nullptr) return;
    timing_key = key;
    expect_resolver_call(key, timing);
  }
  ~Resolving() {
    if (timing_key != nullptr) forget_resolver_call(timing_key);
  }
};

std::string resolver_error(const char* call, int status) { return std::string(call) + ": " + uv_strerror(status); }

}  // namespace

uv_req_t* lookup(uv_loop_t* loop, const std::string& name, LookupDone done, ResolverCall* timing) {
  require_files_before_dns();
  require_hosts_file_name(name);
  return lookup_prechecked(loop, name, std::move(done), timing);
}

uv_req_t* lookup_prechecked(uv_loop_t* loop, const std::string& name, LookupDone done, ResolverCall* timing) {
  using Op = Resolving<uv_getaddrinfo_t, LookupDone>;
  auto op = std::make_unique<Op>();
  op->req.data = op.get();
  op->done = std::move(done);
  op->register_timing(&op->req.addrinfo, timing);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;  // what dns.lookup asks for by default
  hints.ai_socktype = SOCK_STREAM;
  int rc = uv_getaddrinfo(
      loop, &op->req,
      [](uv_getaddrinfo_t* req, int status, addrinfo* res) {
        std::unique_ptr<Op> op(static_cast<Op*>(req->data));
        std::string address, error;
        if (status < 0) {
          error = resolver_error("getaddrinfo", status);
        } else {
          char text[INET6_ADDRSTRLEN] = {};
          int name_rc = uv_ip_name(res->ai_addr, text, sizeof text);
          if (name_rc < 0) error = resolver_error("uv_ip_name", name_rc);
          address = text;
        }
        uv_freeaddrinfo(res);
        op->done(std::move(address), std::move(error));
      },
      name.c_str(), nullptr, &hints);
  if (rc < 0) {
    op->done({}, resolver_error("uv_getaddrinfo", rc));
    return nullptr;
  }
  return reinterpret_cast<uv_req_t*>(&op.release()->req);
}

uv_req_t* reverse_lookup(uv_loop_t* loop, const std::string& address, ReverseLookupDone done, ResolverCall* timing) {
  require_files_before_dns();
  hosts_file_name_of(address);
  return reverse_lookup_prechecked(loop, address, std::move(done), timing);
}

uv_req_t* reverse_lookup_prechecked(uv_loop_t* loop, const std::string& address, ReverseLookupDone done,
                                    ResolverCall* timing) {
  sockaddr_storage storage{};
  if (uv_ip4_addr(address.c_str(), 0, reinterpret_cast<sockaddr_in*>(&storage)) != 0 &&
      uv_ip6_addr(address.c_str(), 0, reinterpret_cast<sockaddr_in6*>(&storage)) != 0)
    throw std::invalid_argument("'" + address + "' is not a numeric IP address");
  using Op = Resolving<uv_getnameinfo_t, ReverseLookupDone>;
  auto op = std::make_unique<Op>();
  op->req.data = op.get();
  op->done = std::move(done);
  op->register_timing(op->req.host, timing);
  int rc = uv_getnameinfo(
      loop, &op->req,
      [](uv_getnameinfo_t* req, int status, const char* host, const char*) {
        std::unique_ptr<Op> op(static_cast<Op*>(req->data));
        if (status < 0) return op->done({}, resolver_error("getnameinfo", status));
        op->done(host, {});
      },
      reinterpret_cast<const sockaddr*>(&storage), NI_NAMEREQD | NI_NUMERICSERV);
  if (rc < 0) {
    op->done({}, resolver_error("uv_getnameinfo", rc));
    return nullptr;
  }
  return reinterpret_cast<uv_req_t*>(&op.release()->req);
}

}  // namespace stallbench
