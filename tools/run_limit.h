// The trace's limit on each run, enforced while the run goes on. A scenario's static check bounds
// what its timers and busy work take (kRunLimitMs), but an fs op can wait on something that never
// comes: a readFile or open of a FIFO nobody writes blocks a pool thread in open(2), as it does in
// Node, and the loop waits for that thread forever. Such a run cannot be stopped from inside (a
// thread stuck in a system call cannot be cancelled), so when the limit passes the tool says why
// on stderr and ends at once with kTimedOutExit, skipping exit-time destructors: libuv's joins its
// pool threads, which would wait forever too.
#pragma once

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace stallbench::tools {

constexpr int kTimedOutExit = 3;

class RunLimit {
 public:
  RunLimit() : watcher_([this] { watch(); }) {}

  ~RunLimit() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    changed_.notify_all();
    watcher_.join();
  }

  // A run starts: it must end within `limit_ms`, or `complaint` (one line) is the tool's last word.
  void arm(double limit_ms, std::string complaint) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      armed_ = true;
      deadline_ = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double, std::milli>(limit_ms));
      complaint_ = std::move(complaint) + "\n";
    }
    changed_.notify_all();
  }

  void disarm() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      armed_ = false;
    }
    changed_.notify_all();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (!armed_) {
        changed_.wait(lock);
      } else if (changed_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !done_ &&
                 std::chrono::steady_clock::now() >= deadline_) {
        [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, complaint_.data(), complaint_.size());
        std::_Exit(kTimedOutExit);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false;
  bool done_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::string complaint_;
  std::thread watcher_;  // last: it starts with the members above in place
};

}  // namespace stallbench::tools
