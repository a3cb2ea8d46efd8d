// pbkdf2 as Node's crypto.pbkdf2 runs it: OpenSSL's PKCS5_PBKDF2_HMAC, one job per pool thread.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stallbench {

enum class Digest { sha1, sha256, sha512 };

Digest parse_digest(std::string_view name);  // throws std::invalid_argument naming the valid ones
std::string_view digest_name(Digest d);

struct Pbkdf2Params {
  std::string password = "correct horse";  // the seed's inputs, so keys can be compared with Node's
  std::string salt = "bookstore-salt";
  int iterations = 3'000'000;
  Digest digest = Digest::sha256;
  std::size_t key_length = 32;
};

using Key = std::vector<std::uint8_t>;

// Derives the key on the calling thread; throws std::runtime_error if OpenSSL refuses.
Key pbkdf2(const Pbkdf2Params& params);

std::string to_hex(const Key& key);

// One pbkdf2 submitted to libuv's pool with uv_queue_work. `done` runs on the loop thread, which
// is when Node would call the JavaScript callback, with the key or with an error text (callbacks
// never throw: an exception cannot cross libuv's C frames). The job owns itself until then.
using Pbkdf2Done = std::function<void(Key key, std::string error)>;
void queue_pbkdf2(uv_loop_t* loop, const Pbkdf2Params& params, Pbkdf2Done done);

// One pbkdf2 through the pool while nothing else runs on it: the unit the latencies are read in.
// Returns milliseconds; the derived key goes to *key.
double time_pbkdf2_alone(uv_loop_t* loop, const Pbkdf2Params& params, Key* key);

}  // namespace stallbench
