// A long-lived helper program spoken to in lines: one request line on its stdin, one reply line
// on its stdout. The regex engines of other languages (programs/) and V8's run this way.
//
// The program is this process's child, in its process group, and dies with it
// (child_process.h): a program busy backtracking reads no end-of-file, so closing its pipe is not
// enough (node kept running for minutes after regex_check was killed on its timeout). Its stderr
// is ours: the cell's log.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string>
#include <vector>

namespace stallbench::regex {

class LineProgram {
 public:
  // Starts argv (argv[0] a path); throws std::runtime_error naming it when it cannot start.
  explicit LineProgram(const std::vector<std::string>& argv);
  ~LineProgram();  // closes its stdin (it exits at end-of-file) and reaps it
  LineProgram(const LineProgram&) = delete;
  LineProgram& operator=(const LineProgram&) = delete;

  // Sends `line` (no newline in it) and returns the reply without its newline; throws
  // std::runtime_error when the program died or closed its output.
  std::string request(const std::string& line);

 private:
  std::string name_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  FILE* from_child_ = nullptr;
};

}  // namespace stallbench::regex
