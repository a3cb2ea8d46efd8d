#include "scrypt_job.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace stallbench {

std::uint64_t scrypt_memory_bytes(const ScryptParams& p) { return 128 * p.block_size * (p.cost + p.parallelism + 2); }

Key scrypt(const ScryptParams& p) {
  Key key(p.key_length);
  int ok = EVP_PBE_scrypt(p.password.data(), p.password.size(), reinterpret_cast<const unsigned char*>(p.salt.data()),
                          p.salt.size(), p.cost, p.block_size, p.parallelism, scrypt_memory_bytes(p), key.data(),
                          key.size());
  if (ok != 1) throw std::runtime_error("EVP_PBE_scrypt refused N=" + std::to_string(p.cost));
  return key;
}

}  // namespace stallbench
