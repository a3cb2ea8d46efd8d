// A user's own JSON file (`stallbench json --input FILE`): refused before a byte is parsed when it
// cannot be parsed at all: missing, unreadable, over simdjson's 4 GiB document limit (simdjson
// 3.0.1 indexes documents with 32-bit offsets) or larger than the memory this process may use.
#pragma once

#include <cstdint>
#include <string>

#include "json_text.h"

namespace stallbench {

// simdjson's SIMDJSON_MAXSIZE_BYTES: 4 GiB - 1.
inline constexpr std::uint64_t kSimdjsonMaxBytes = 0xFFFFFFFFull;

// Why `path` cannot be parsed (one line, saying what is valid), or empty when it can.
std::string refuse_input(const std::string& path);

// The file's bytes, padded. Throws std::runtime_error when it cannot be read.
JsonText read_input(const std::string& path);

// Memory this process can still use: the smaller of MemAvailable and its address-space limit.
std::uint64_t usable_memory_bytes();

}  // namespace stallbench
