// A child process spoken to in lines: requests written to its stdin, answers read from its stdout
// with a time limit; its stderr goes where ours goes (the cell's log). It asks the kernel to kill
// it when this process dies (PR_SET_PDEATHSIG) and stays in our process group, so a cell killed by
// the orchestrator takes it, and whatever it started in the same group, along.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace stallbench::browser {

class LineChild {
 public:
  // Starts argv[0] (a path) with argv. Throws std::runtime_error when it cannot be started.
  explicit LineChild(const std::vector<std::string>& argv);
  ~LineChild();  // closes its stdin, gives it a moment to exit, then kills it
  LineChild(const LineChild&) = delete;
  LineChild& operator=(const LineChild&) = delete;

  void write_line(const std::string& line);  // throws std::runtime_error when it has gone
  // The next line (without its newline). Throws std::runtime_error when the child closed its
  // stdout first, and LineTimeout when `timeout_s` passed first.
  std::string read_line(double timeout_s);
  void kill();  // at once, and reaps it

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffered_;
};

struct LineTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every line `argv` prints on stdout until it closes it (a --version), within `timeout_s`; what it
// writes to stderr is not read. Empty when it prints nothing or cannot be started.
std::vector<std::string> stdout_lines_of(const std::vector<std::string>& argv, double timeout_s);

}  // namespace stallbench::browser
