// scrypt as Node's crypto.scrypt runs it: OpenSSL's EVP_PBE_scrypt on a pool thread. Its cost N
// sets both the time and the memory (128 * r * N bytes per job: 16 MiB at Node's defaults), so
// many concurrent jobs also compete for memory bandwidth, not only for cores.
#pragma once

#include <cstdint>
#include <string>

#include "pbkdf2_job.h"

namespace stallbench {

struct ScryptParams {
  std::string password = "correct horse";
  std::string salt = "bookstore-salt";
  std::uint64_t cost = 16384;  // N, a power of two (Node's default)
  std::uint64_t block_size = 8;  // r (Node's default)
  std::uint64_t parallelism = 1;  // p (Node's default)
  std::size_t key_length = 64;
};

// Bytes one derivation needs: what Node's maxmem must allow.
std::uint64_t scrypt_memory_bytes(const ScryptParams& params);

// Derives the key on the calling thread; throws std::runtime_error if OpenSSL refuses.
Key scrypt(const ScryptParams& params);

}  // namespace stallbench
