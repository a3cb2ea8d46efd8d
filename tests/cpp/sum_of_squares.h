// The fixture benches' CPU work (tiny_bench, tiny_pool_bench): a fixed integer loop whose instruction
// count depends only on `n`, with its answer known in closed form so every repetition checks it.
#pragma once

#include <cstdint>

namespace stallbench::fixture {

// Sum of i*i for i < n, modulo 2^64; volatile so the loop is neither folded nor vectorised away.
inline std::uint64_t sum_of_squares(std::int64_t n) {
  volatile std::uint64_t sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum = sum + static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(i);
  return sum;
}

inline std::uint64_t expected_sum_of_squares(std::int64_t n) {  // n(n-1)(2n-1)/6 over 128 bits, truncated like the loop
  unsigned __int128 m = static_cast<unsigned __int128>(n);
  return static_cast<std::uint64_t>(m * (m - 1) * (2 * m - 1) / 6);
}

}  // namespace stallbench::fixture
