// The only place stallbench lets getaddrinfo ask DNS: inside a private network and mount
// namespace of this process, where the sole interface is loopback, /etc/resolv.conf (bind-mounted
// over, privately) names 127.0.0.1, /etc/nsswitch.conf says "hosts: dns", and the only server is
// our own (delaying_dns_server.h). Even a mistake could not reach a real resolver: there is no
// route off the machine in the namespace. Needs root (CAP_SYS_ADMIN; in a chroot also CAP_SYS_CHROOT,
// to make the namespace's mounts private: private_mounts.h) and a single-threaded
// process, so it is entered before anything starts a thread; the host's files are never touched.
#pragma once

#include <string>

namespace stallbench {

class PrivateResolver {
 public:
  // Enters the namespaces and installs the resolver files; throws std::runtime_error naming the
  // step that failed. Only one per process.
  PrivateResolver();
  PrivateResolver(const PrivateResolver&) = delete;
  PrivateResolver& operator=(const PrivateResolver&) = delete;

  // The domain every query must be under (RFC 6761 reserves .test: it resolves nowhere).
  static constexpr const char* domain = "stallbench.test";
};

// Empty when this process could enter the namespaces (tried in a short-lived child, which leaves
// this process as it was), else why not: "unshare(...): Operation not permitted".
std::string private_resolver_unavailable();

}  // namespace stallbench
