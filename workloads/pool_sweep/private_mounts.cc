#include "private_mounts.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace stallbench {
namespace {

bool make_root_private() { return mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0; }

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// In a chroot "/" is a folder of a mount outside it, which mount(2) cannot name from inside
// (EINVAL). For this one call the process climbs to its namespace's own root (chroot into a folder
// below while the working directory stays above, then ".." up to the top, as root may), makes the
// mounts private there and returns. That root is the process's private copy of the mounts; nothing
// is read or written there.
bool make_private_from_the_namespace_root(int root, int cwd) {
  if (::chdir("/") != 0 || ::chroot("/etc") != 0) {  // no CAP_SYS_CHROOT: nothing moved
    int saved = errno;
    (void)::fchdir(cwd);
    errno = saved;
    return false;
  }
  struct stat here, up;
  bool ok = true;
  for (int step = 0; ok && step < 4096; ++step) {
    ok = ::stat(".", &here) == 0 && ::stat("..", &up) == 0;
    if (!ok || same_file(here, up)) break;
    ok = ::chdir("..") == 0;
  }
  ok = ok && ::chroot(".") == 0 && make_root_private();
  int saved = errno;
  struct stat start, now;
  bool back = ::fstat(root, &start) == 0 && ::fchdir(root) == 0 && ::chroot(".") == 0 && ::fchdir(cwd) == 0 &&
              ::stat("/", &now) == 0 && same_file(now, start);
  if (!back) throw std::runtime_error("making the mounts private: could not return to the chroot it started in");
  errno = saved;
  return ok;
}

}  // namespace

bool make_mounts_private() {
  if (make_root_private()) return true;
  if (errno != EINVAL) return false;
  // Closed on every way out, the exception included.
  struct Folder {
    int fd;
    explicit Folder(const char* path) : fd(::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
    ~Folder() {
      if (fd >= 0) ::close(fd);
    }
  } root("/"), cwd(".");
  if (root.fd < 0 || cwd.fd < 0) return false;
  return make_private_from_the_namespace_root(root.fd, cwd.fd);
}

}  // namespace stallbench
