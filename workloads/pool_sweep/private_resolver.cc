#include "private_resolver.h"

#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "private_mounts.h"

namespace stallbench {
namespace {

constexpr int namespaces = CLONE_NEWNET | CLONE_NEWNS;

[[noreturn]] void fail(const std::string& step) {
  throw std::runtime_error("private resolver: " + step + ": " + std::strerror(errno));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes `text` to a private file and bind-mounts it over `target` in this mount namespace.
void cover(const std::string& target, const std::string& text) {
  char path[] = "/tmp/stallbench-resolver-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) fail("mkstemp");
  bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written) fail("write " + std::string(path));
  if (mount(path, target.c_str(), nullptr, MS_BIND, nullptr) != 0) fail("bind-mount over " + target);
  ::unlink(path);  // the mount keeps the file; nothing is left behind in /tmp
  if (read_text(target) != text) throw std::runtime_error("private resolver: " + target + " did not take the new text");
}

void bring_loopback_up() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) fail("socket");
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  bool ok = ioctl(s, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags |= IFF_UP;
  ok = ok && ioctl(s, SIOCSIFFLAGS, &request) == 0;
  ::close(s);
  if (!ok) fail("bring up lo");
}

void require_only_loopback() {
  struct if_nameindex* names = if_nameindex();
  if (names == nullptr) fail("if_nameindex");
  std::string others;
  for (struct if_nameindex* n = names; n->if_index != 0; ++n)
    if (std::strcmp(n->if_name, "lo") != 0) others += std::string(" ") + n->if_name;
  if_freenameindex(names);
  if (!others.empty()) throw std::runtime_error("private resolver: the namespace has interfaces besides lo:" + others);
}

void require_no_nscd() {
  struct stat st;
  for (const char* socket : {"/var/run/nscd/socket", "/run/nscd/socket"})
    if (::stat(socket, &st) == 0)
      throw std::runtime_error(std::string("private resolver: nscd is running (") + socket +
                               ") and would answer from outside the namespace");
}

}  // namespace

PrivateResolver::PrivateResolver() {
  require_no_nscd();
  if (unshare(namespaces) != 0) fail("unshare(CLONE_NEWNET|CLONE_NEWNS)");
  if (!make_mounts_private()) fail("make the mounts private");
  bring_loopback_up();
  require_only_loopback();
  cover("/etc/resolv.conf", "nameserver 127.0.0.1\noptions timeout:2 attempts:1\n");
  cover("/etc/nsswitch.conf", "hosts: dns\n");
}

std::string private_resolver_unavailable() {
  pid_t child = fork();
  if (child < 0) return std::string("fork: ") + std::strerror(errno);
  // The child's exit status: 0, or which step failed and its errno (1-63: unshare, 64-126: the mounts
  // private), or 127: it could not return to its chroot.
  if (child == 0) {
    if (unshare(namespaces) != 0) _exit((errno & 0x3f) + 1);
    try {
      _exit(make_mounts_private() ? 0 : (errno & 0x3f) + 64);
    } catch (const std::exception&) {
      _exit(127);
    }
  }
  int status = 0;
  if (waitpid(child, &status, 0) < 0) return std::string("waitpid: ") + std::strerror(errno);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1 + EPERM;
  if (code == 127) return "making the mounts of a mount namespace private: could not return to the chroot it started in";
  if (code >= 64) return std::string("making the mounts of a mount namespace private: ") + std::strerror(code - 64);
  return std::string("unshare(CLONE_NEWNET|CLONE_NEWNS): ") + std::strerror(code - 1) + " (needs root)";
}

}  // namespace stallbench
