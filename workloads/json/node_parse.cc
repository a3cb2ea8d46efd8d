#include "node_parse.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace stallbench {

extern const char kNodeParseJs[];  // node_parse.js, embedded by CMake

namespace {

// Runs argv, returns (exit status, stdout+stderr). Throws when it cannot be started.
std::pair<int, std::string> capture(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot start " + argv[0]);
  }
  std::string output;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) output.append(buf, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), output};
}

// The last non-empty line of a program's output: its answer, or its error message.
std::string last_line(std::string output) {
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  std::size_t newline = output.rfind('\n');
  return newline == std::string::npos ? output : output.substr(newline + 1);
}

}  // namespace

std::string find_node() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/node";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

std::string node_version() {
  std::string node = find_node();
  if (node.empty()) return {};
  auto [status, output] = capture({node, "--version"});
  return status == 0 ? last_line(output) : std::string();
}

NodeParse run_node_parse(const std::string& node, const std::string& file, const RecordTask& task) {
  auto [status, output] = capture({node, "-e", kNodeParseJs, file, task.id, task.a, task.b, task.text});
  std::string answer = last_line(output);
  if (status != 0) throw std::runtime_error("node exited with " + std::to_string(status) + ": " + answer);
  nlohmann::json r = nlohmann::json::parse(answer);
  NodeParse parse{r.at("first_ms").get<double>(), r.at("steady_ms").get<double>(), {}, r.at("version").get<std::string>()};
  parse.answer.records = r.at("records").get<std::uint64_t>();
  parse.answer.id_sum = r.at("id_sum").get<std::uint64_t>();
  parse.answer.amount_sum = r.at("amount_sum").get<double>();
  parse.answer.text_bytes = r.at("text_bytes").get<std::uint64_t>();
  return parse;
}

}  // namespace stallbench
