// Children of a bench binary (node, mostly) live by the orchestrator's process-lifetime rule
// (scripts/stallbench_lib/children.py): they stay in this process's group, so killing the cell's
// group kills them, and they ask the kernel to kill them when this process dies (PR_SET_PDEATHSIG),
// so a cell killed on its own, or an orchestrator SIGKILLed, leaves no node behind.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace stallbench {

// Starts argv[0] (a path, no PATH search) with its stdin, stdout and stderr on the given
// descriptors (-1: inherit ours). The child dies with the *thread* that calls this: call it from a
// thread that outlives the child. Throws std::runtime_error when fork fails; an exec failure is
// the child's exit status 127.
pid_t spawn_dying_with_us(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd, int stderr_fd);

}  // namespace stallbench
