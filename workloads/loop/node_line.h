// The Node line the runtime models. What changed between the pinned lines and shows in the order
// callbacks run, each checked against the real binaries (docs/starvation.md, "Per line"):
//
//   line  libuv  timers phase               ES module entry              fs.readFile / writeFile
//   18    1.44   start of each iteration    read on the pool: the body   open, fstat, read..., close /
//                                           runs from a poll completion  open, write..., close
//   20    1.46   after poll and check, and  as 18                        as 18
//                once before the first
//   22    1.51   as 20                      evaluated before the loop    as 18
//   24    1.52   as 20                      as 22                        as 18
//   26    1.52   as 20                      as 22                        one pool request (open, fstat,
//                                                                        read, close together) for files
//                                                                        up to 512 KiB and for size-0 ones;
//                                                                        one writeFile request
//
// fs.readFile's reads: at most 512 KiB each; a file whose fstat size is 0 (empty, /proc) is read in
// 64 KiB requests until a read returns 0 bytes (lib/internal/fs/read/context.js).
#pragma once

#include <string>
#include <vector>

namespace stallbench::loop {

enum class EsmEntry {
  read_on_pool,  // the loader awaits the file's read: the body runs from an I/O completion (poll)
  before_loop,   // loaded synchronously: the body runs before the loop starts, like CommonJS
};

enum class FsRequests {
  one_per_step,  // readFile: open, fstat, each read, close; writeFile: open, each write, close
  one_shot,      // one pool request per readFile (files up to 512 KiB, or size 0) and per writeFile
};

struct NodeLineModel {
  int line;                 // 18, 20, ...
  std::string libuv;        // the libuv the line bundles, major.minor
  bool timers_after_poll;   // libuv 1.45 and later
  EsmEntry esm_entry;
  FsRequests fs_requests;

  // One line each, for the trace header and meta.json.
  std::vector<std::string> describe() const;
};

const std::vector<int>& modelled_lines();  // oldest first
int newest_modelled_line();
// Throws std::invalid_argument naming the modelled lines when `line` is not one of them.
const NodeLineModel& node_line_model(int line);

constexpr std::size_t kReadFileChunk = 512 * 1024;         // kReadFileBufferLength
constexpr std::size_t kReadFileUnknownChunk = 64 * 1024;   // kReadFileUnknownBufferLength

}  // namespace stallbench::loop
