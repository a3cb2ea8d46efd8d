#include "node_line.h"

#include <cstdio>
#include <stdexcept>

#include "runtime.h"

namespace stallbench::loop {
namespace {

const std::vector<NodeLineModel>& models() {
  static const std::vector<NodeLineModel> all = {
      {18, "1.44", false, EsmEntry::read_on_pool, FsRequests::one_per_step},
      {20, "1.46", true, EsmEntry::read_on_pool, FsRequests::one_per_step},
      {22, "1.51", true, EsmEntry::before_loop, FsRequests::one_per_step},
      {24, "1.52", true, EsmEntry::before_loop, FsRequests::one_per_step},
      {26, "1.52", true, EsmEntry::before_loop, FsRequests::one_shot},
  };
  return all;
}

}  // namespace

std::vector<std::string> NodeLineModel::describe() const {
  unsigned major = 0, minor = 0;
  std::sscanf(libuv.c_str(), "%u.%u", &major, &minor);
  return {
      timer_phase(major, minor).text,
      esm_entry == EsmEntry::read_on_pool
          ? "an ES module entry is read on the pool first: its body runs from an I/O completion (poll phase)"
          : "an ES module entry is evaluated before the loop starts, as a CommonJS one",
      fs_requests == FsRequests::one_shot
          ? "fs.readFile is one pool request for files up to 512 KiB or of size 0 (else open+fstat, 512 KiB "
            "reads, close); fs.writeFile is one request"
          : "fs.readFile is open, fstat, reads of at most 512 KiB (64 KiB until a 0-byte read when the size is 0), "
            "close; fs.writeFile is open, writes, close: one pool request each",
  };
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

const NodeLineModel& node_line_model(int line) {
  for (const auto& m : models())
    if (m.line == line) return m;
  std::string valid;
  for (int l : modelled_lines()) valid += (valid.empty() ? "" : ", ") + std::to_string(l);
  throw std::invalid_argument("Node " + std::to_string(line) + " is not a modelled line (modelled: " + valid + ")");
}

}  // namespace stallbench::loop
