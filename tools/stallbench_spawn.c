/* stallbench_spawn: what scripts/stallbench_lib/children.py starts a child through once the build
 * has made it. It sets up this process as the child must start, then becomes the child (execv):
 *
 *   stallbench_spawn ADDRESS_SPACE_BYTES ORCHESTRATOR_PID PATH ARGV0 [ARGS...]
 *
 * - SIGINT and SIGTERM unblocked (the orchestrator holds them while it starts a child);
 * - RLIMIT_AS at ADDRESS_SPACE_BYTES (0: none; a V8 runtime reserves far more than it uses);
 * - SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG), which execv keeps; if the
 *   orchestrator has already gone by then, nothing is started.
 *
 * Why a program and not Python between fork and exec: a Python function there makes subprocess fork()
 * the whole interpreter, where without one it uses vfork: 25 ms of processor time a child against 6
 * here, and a fifth of the processor time of the Python tests that start children most (the `other`
 * group). Exit 127 when PATH cannot be executed, 2 on bad arguments. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

static int parse(const char* text, unsigned long long* value) {
  char* end = NULL;
  errno = 0;
  *value = strtoull(text, &end, 10);
  return errno == 0 && end != text && *end == '\0';
}

int main(int argc, char** argv) {
  unsigned long long address_space = 0, orchestrator = 0;
  if (argc < 5 || !parse(argv[1], &address_space) || !parse(argv[2], &orchestrator)) {
    fprintf(stderr, "usage: stallbench_spawn ADDRESS_SPACE_BYTES ORCHESTRATOR_PID PATH ARGV0 [ARGS...]\n");
    return 2;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  if (sigprocmask(SIG_UNBLOCK, &stop, NULL) != 0) {
    perror("stallbench_spawn: sigprocmask");
    return 127;
  }
  if (address_space > 0) {
    struct rlimit limit = {(rlim_t)address_space, (rlim_t)address_space};
    if (setrlimit(RLIMIT_AS, &limit) != 0) {
      perror("stallbench_spawn: setrlimit");
      return 127;
    }
  }
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
    perror("stallbench_spawn: prctl");
    return 127;
  }
  if ((unsigned long long)getppid() != orchestrator) return 127; /* it died before the prctl */
  execv(argv[3], argv + 4);
  fprintf(stderr, "stallbench_spawn: %s: %s\n", argv[3], strerror(errno));
  return 127;
}
