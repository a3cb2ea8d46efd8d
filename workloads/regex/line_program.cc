#include "line_program.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "../common/child_process.h"

namespace stallbench::regex {

LineProgram::LineProgram(const std::vector<std::string>& argv) : name_(argv.at(0)) {
  std::signal(SIGPIPE, SIG_IGN);  // a dead program must be an error reply, not a killed bench
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    throw std::runtime_error("pipe failed");
  }
  std::string failure;
  try {
    pid_ = spawn_dying_with_us(argv, to_child[0], from_child[1], -1);
  } catch (const std::runtime_error& e) {
    failure = e.what();
  }
  close(to_child[0]);
  close(from_child[1]);
  to_child_ = to_child[1];
  from_child_ = fdopen(from_child[0], "r");
  if (!failure.empty()) {
    close(to_child_);
    fclose(from_child_);
    throw std::runtime_error("cannot start " + name_ + ": " + failure);
  }
}

LineProgram::~LineProgram() {
  close(to_child_);
  fclose(from_child_);
  int status = 0;
  waitpid(pid_, &status, 0);
}

std::string LineProgram::request(const std::string& line) {
  std::string out = line + "\n";
  for (std::size_t sent = 0; sent < out.size();) {
    ssize_t n = write(to_child_, out.data() + sent, out.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(name_ + ": write failed: " + std::strerror(errno));
    sent += static_cast<std::size_t>(n);
  }
  char* buffer = nullptr;
  std::size_t capacity = 0;
  ssize_t n = getline(&buffer, &capacity, from_child_);
  std::string reply = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
  std::free(buffer);
  if (reply.empty()) throw std::runtime_error(name_ + " exited without replying (see its stderr in the log)");
  if (reply.back() == '\n') reply.pop_back();
  return reply;
}

}  // namespace stallbench::regex
