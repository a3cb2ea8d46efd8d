#include "line_child.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace stallbench::browser {
namespace {

constexpr double kExitGraceS = 15;  // the driver closes Chromium (through the protocol) when its stdin closes

std::runtime_error system_error(const std::string& what) { return std::runtime_error(what + ": " + std::strerror(errno)); }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

LineChild::LineChild(const std::vector<std::string>& argv) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) throw system_error("pipe");
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    throw system_error("pipe");
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // fork/exec rather than posix_spawn, for PR_SET_PDEATHSIG; only async-signal-safe calls between.
  pid_ = ::fork();
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  in_ = to_child[1];
  out_ = from_child[0];
  if (pid_ < 0) {
    ::close(in_);
    ::close(out_);
    throw system_error("fork");
  }
}

LineChild::~LineChild() {
  if (pid_ <= 0) return;
  ::close(in_);
  in_ = -1;
  auto start = std::chrono::steady_clock::now();
  while (seconds_since(start) < kExitGraceS) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill();
}

void LineChild::write_line(const std::string& line) {
  std::string text = line + "\n";
  // A child that has gone makes the write fail with EPIPE, not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(in_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw system_error("writing to the driver");
    done += static_cast<std::size_t>(n);
  }
}

std::string LineChild::read_line(double timeout_s) {
  auto start = std::chrono::steady_clock::now();
  char chunk[65536];
  for (;;) {
    if (auto newline = buffered_.find('\n'); newline != std::string::npos) {
      std::string line = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      return line;
    }
    double left_ms = (timeout_s - seconds_since(start)) * 1e3;
    if (left_ms <= 0) throw LineTimeout("no answer within " + std::to_string(static_cast<int>(timeout_s)) + " s");
    pollfd fd{out_, POLLIN, 0};
    int ready = ::poll(&fd, 1, static_cast<int>(left_ms) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw system_error("poll");
    if (ready == 0) continue;
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the driver exited");
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

void LineChild::kill() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
  in_ = out_ = -1;
}

std::vector<std::string> stdout_lines_of(const std::vector<std::string>& argv, double timeout_s) {
  std::vector<std::string> lines;
  auto start = std::chrono::steady_clock::now();
  try {
    LineChild child(argv);
    for (;;) lines.push_back(child.read_line(std::max(0.0, timeout_s - seconds_since(start))));
  } catch (const std::runtime_error&) {  // end of output, a timeout, or no child at all
  }
  return lines;
}

}  // namespace stallbench::browser
