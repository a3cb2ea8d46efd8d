#include "node_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "child_process.h"

namespace stallbench {

std::string find_node() {
  if (const char* given = std::getenv("STALLBENCH_NODE"); given != nullptr) {
    std::string path = given;
    if (path.empty() || path == "none") return "";
    return ::access(path.c_str(), X_OK) == 0 ? path : "";
  }
  const char* search = std::getenv("PATH");
  std::istringstream dirs(search != nullptr ? search : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/node";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

namespace {

struct Captured {
  int status = 0;
  std::string out, err;
};

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n");
  if (end == std::string::npos) return "";
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// The child dies with us (child_process.h), so a cell killed by the orchestrator leaves no Node behind.
Captured capture(const std::vector<std::string>& argv) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  pid_t pid = -1;
  try {
    pid = spawn_dying_with_us(argv, -1, out_pipe[1], err_pipe[1]);
  } catch (const std::runtime_error&) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    throw;
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Captured c;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&c.out, &c.err};
  int open = 2;
  char buffer[4096];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (auto& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  while (::waitpid(pid, &c.status, 0) < 0 && errno == EINTR) {
  }
  return c;
}

}  // namespace

nlohmann::json run_node_json(const std::string& node, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {node};
  argv.insert(argv.end(), args.begin(), args.end());
  Captured c = capture(argv);
  if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
    std::string why = WIFSIGNALED(c.status) ? std::string("killed by signal ") + std::to_string(WTERMSIG(c.status))
                                            : "exited with " + std::to_string(WEXITSTATUS(c.status));
    std::string said = last_line(c.err);
    throw std::runtime_error("node " + why + (said.empty() ? "" : ": " + said));
  }
  try {
    return nlohmann::json::parse(last_line(c.out));
  } catch (const nlohmann::json::exception&) {  // not JSON, or a number past a double's range
    throw std::runtime_error("node printed no JSON result (last line: '" + last_line(c.out) + "')");
  }
}

NodeVersions node_versions(const std::string& node) {
  auto v = run_node_json(node, {"-p", "JSON.stringify({node: process.version, uv: process.versions.uv})"});
  return {v.at("node").get<std::string>(), v.at("uv").get<std::string>()};
}

}  // namespace stallbench
