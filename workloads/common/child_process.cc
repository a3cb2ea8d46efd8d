#include "child_process.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace stallbench {

// fork/exec rather than posix_spawn: the child must call prctl before exec. Only async-signal-safe
// calls between fork and exec (everything is prepared before the fork).
pid_t spawn_dying_with_us(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd, int stderr_fd) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before the request took effect
    const int wanted[3] = {stdin_fd, stdout_fd, stderr_fd};
    for (int target = 0; target < 3; ++target)
      if (wanted[target] >= 0 && ::dup2(wanted[target], target) < 0) ::_exit(127);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace stallbench
