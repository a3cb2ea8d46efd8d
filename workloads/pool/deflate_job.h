// Compression as Node's zlib.deflate runs it: zlib's deflate at the default level on a pool
// thread. The input is text-like (repetitive but not trivial), so the work is typical of
// compressing a JSON or HTML response.
#pragma once

#include <cstdint>
#include <string>

namespace stallbench {

struct Deflated {
  std::size_t bytes = 0;     // compressed length
  std::uint32_t crc32 = 0;   // of the compressed bytes: equal runs compress equally
  bool operator==(const Deflated&) const = default;
};

// `size` bytes of response-like text, the same for a given size.
std::string compressible_text(std::size_t size);

// Compresses `input` with zlib (level 6, as zlib.deflate by default) on the calling thread;
// throws std::runtime_error if zlib fails.
Deflated deflate_text(const std::string& input);

// Inflates what deflate_text produced and compares it with `input`: the round trip that proves
// the compressor's answer, run once per input rather than on every job.
bool deflate_round_trips(const std::string& input);

}  // namespace stallbench
