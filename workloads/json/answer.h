// What a parser answers, so every parse is also a correctness check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace stallbench {

// The record task over a generated payload (see shapes.json): summed in record order, so every
// parser and mode that reads the same numbers produces the same bits.
struct RecordAnswer {
  std::uint64_t records = 0;
  std::uint64_t id_sum = 0;
  double amount_sum = 0;         // sum of a * b
  std::uint64_t text_bytes = 0;  // decoded UTF-8 bytes of the text field

  void add(std::uint64_t id, double a, double b, std::size_t text_size) {
    ++records;
    id_sum += id;
    amount_sum += a * b;
    text_bytes += text_size;
  }
  bool operator==(const RecordAnswer&) const = default;
  std::string describe() const {
    return std::to_string(records) + " records, id sum " + std::to_string(id_sum) + ", amount sum " +
           std::to_string(amount_sum) + ", text bytes " + std::to_string(text_bytes);
  }
};

// The walk over any document (a user's --input file): every value visited.
struct WalkAnswer {
  std::uint64_t values = 0;        // every value, containers included
  std::uint64_t string_bytes = 0;  // decoded UTF-8 bytes of every string and key
  double number_sum = 0;           // every number as a double

  // Parsers may visit object members in another order (nlohmann sorts keys) and round huge
  // integers differently, so the number sum is compared with a relative tolerance.
  bool agrees_with(const WalkAnswer& other) const {
    double scale = std::max({1.0, std::fabs(number_sum), std::fabs(other.number_sum)});
    return values == other.values && string_bytes == other.string_bytes &&
           std::fabs(number_sum - other.number_sum) <= 1e-9 * scale;
  }
  std::string describe() const {
    return std::to_string(values) + " values, string bytes " + std::to_string(string_bytes) + ", number sum " +
           std::to_string(number_sum);
  }
};

}  // namespace stallbench
