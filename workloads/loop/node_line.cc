#include "node_line.h"

#include <cstdio>
#include <stdexcept>

#include "runtime.h"

namespace stallbench::loop {
namespace {

// One row per Node line, oldest first: adding a line starts here (docs/adding-a-node-line.md).
const std::vector<NodeLineModel>& models() {
  static const std::vector<NodeLineModel> all = {
      {18, "18.20.8", "1.44", false, EsmEntry::read_on_pool, FsRequests::one_per_step, ThrownQueues::drained_at_check,
       RejectionReport::skips_handled},
      {20, "20.20.2", "1.46", true, EsmEntry::read_on_pool, FsRequests::one_per_step, ThrownQueues::drained_at_check,
       RejectionReport::all_pending},
      {22, "22.23.5", "1.51", true, EsmEntry::before_loop, FsRequests::one_per_step, ThrownQueues::drained_at_check,
       RejectionReport::all_pending},
      {24, "24.22.3", "1.52", true, EsmEntry::before_loop, FsRequests::one_per_step, ThrownQueues::drained_at_check,
       RejectionReport::all_pending},
      {26, "26.12.1", "1.52", true, EsmEntry::before_loop, FsRequests::one_shot, ThrownQueues::either,
       RejectionReport::all_pending},
  };
  return all;
}

const char* thrown_queues_text(ThrownQueues where) {
  switch (where) {
    case ThrownQueues::drained_at_check:
      return "the ticks and microtasks left behind a handled uncaught exception run as the next check phase begins";
    case ThrownQueues::next_callback:
      return "the ticks and microtasks left behind a handled uncaught exception run after the next callback";
    case ThrownQueues::either:
    case ThrownQueues::drained_in_poll:
      break;
  }
  return "the ticks and microtasks left behind a handled uncaught exception run after the next callback, or "
         "before it when V8 runs a task of its own in a poll phase that comes first, from run to run: the model "
         "gives both orders, not their odds";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> NodeLineModel::semantics() const {
  unsigned major = 0, minor = 0;
  std::sscanf(libuv.c_str(), "%u.%u", &major, &minor);
  return {
      {"timers_phase", timer_phase(major, minor).text},
      {"esm_entry", esm_entry == EsmEntry::read_on_pool
                        ? "an ES module entry is read on the pool first: its body runs from an I/O completion (poll phase)"
                        : "an ES module entry is evaluated before the loop starts, as a CommonJS one"},
      {"fs_requests",
       fs_requests == FsRequests::one_shot
           ? "fs.readFile is one pool request for files up to 512 KiB or of size 0 (else open+fstat, 512 KiB "
             "reads, close); fs.writeFile is one request"
           : "fs.readFile is open, fstat, reads of at most 512 KiB (64 KiB until a 0-byte read when the size is 0), "
             "close; fs.writeFile is open, writes, close: one pool request each"},
      {"after_uncaught", thrown_queues_text(thrown_queues)},
      {"rejection_report",
       rejection_report == RejectionReport::skips_handled
           ? "an 'unhandledRejection' listener that handles a rejection pending in the same report keeps it from being reported"
           : "every rejection pending when a report begins is reported, even one an earlier listener of that report handled"},
  };
}

std::vector<std::string> NodeLineModel::describe() const {
  std::vector<std::string> lines;
  for (const auto& [aspect, sentence] : semantics()) lines.push_back(sentence);
  return lines;
}

const std::vector<int>& modelled_lines() {
  static const std::vector<int> lines = [] {
    std::vector<int> out;
    for (const auto& m : models()) out.push_back(m.line);
    return out;
  }();
  return lines;
}

int newest_modelled_line() { return modelled_lines().back(); }

std::string modelled_lines_text() {
  std::string text;
  for (int l : modelled_lines()) text += (text.empty() ? "" : ", ") + std::to_string(l);
  return text;
}

const NodeLineModel& node_line_model(int line) {
  for (const auto& m : models())
    if (m.line == line) return m;
  throw std::invalid_argument("Node " + std::to_string(line) + " is not a modelled line (modelled: " +
                              modelled_lines_text() + ")");
}

}  // namespace stallbench::loop
