#include "pbkdf2_job.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "../common/uv_check.h"
#include "../common/uv_clock.h"

namespace stallbench {

Digest parse_digest(std::string_view name) {
  if (name == "sha1") return Digest::sha1;
  if (name == "sha256") return Digest::sha256;
  if (name == "sha512") return Digest::sha512;
  throw std::invalid_argument("unknown digest '" + std::string(name) + "' (valid: sha1, sha256, sha512)");
}

std::string_view digest_name(Digest d) {
  switch (d) {
    case Digest::sha1: return "sha1";
    case Digest::sha256: return "sha256";
    case Digest::sha512: return "sha512";
  }
  return "?";
}

static const EVP_MD* evp_digest(Digest d) {
  switch (d) {
    case Digest::sha1: return EVP_sha1();
    case Digest::sha256: return EVP_sha256();
    case Digest::sha512: return EVP_sha512();
  }
  return nullptr;
}

Key pbkdf2(const Pbkdf2Params& p) {
  Key key(p.key_length);
  int ok = PKCS5_PBKDF2_HMAC(p.password.data(), static_cast<int>(p.password.size()),
                             reinterpret_cast<const unsigned char*>(p.salt.data()),
                             static_cast<int>(p.salt.size()), p.iterations, evp_digest(p.digest),
                             static_cast<int>(key.size()), key.data());
  if (ok != 1) throw std::runtime_error("PKCS5_PBKDF2_HMAC failed");
  return key;
}

std::string to_hex(const Key& key) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (auto byte : key) {
    out += digits[byte >> 4];
    out += digits[byte & 0xf];
  }
  return out;
}

namespace {

struct Pbkdf2Work {
  uv_work_t req;
  Pbkdf2Params params;
  Key key;
  std::string error;
  Pbkdf2Done done;
};

}  // namespace

void queue_pbkdf2(uv_loop_t* loop, const Pbkdf2Params& params, Pbkdf2Done done) {
  auto work = std::make_unique<Pbkdf2Work>();
  work->req.data = work.get();
  work->params = params;
  work->done = std::move(done);
  uv_check(uv_queue_work(
               loop, &work->req,
               [](uv_work_t* req) {
                 auto* w = static_cast<Pbkdf2Work*>(req->data);
                 try {
                   w->key = pbkdf2(w->params);
                 } catch (const std::exception& e) {
                   w->error = e.what();
                 }
               },
               [](uv_work_t* req, int status) {
                 std::unique_ptr<Pbkdf2Work> w(static_cast<Pbkdf2Work*>(req->data));
                 if (status < 0) w->error = std::string("pbkdf2 work: ") + uv_strerror(status);
                 w->done(std::move(w->key), std::move(w->error));
               }),
           "uv_queue_work(pbkdf2)");
  work.release();
}

double time_pbkdf2_alone(uv_loop_t* loop, const Pbkdf2Params& params, Key* key) {
  double start = hrtime_ms(), done = 0;
  std::string failure;
  queue_pbkdf2(loop, params, [&](Key k, std::string error) {
    done = hrtime_ms();
    *key = std::move(k);
    failure = std::move(error);
    uv_stop(loop);
  });
  uv_run(loop, UV_RUN_DEFAULT);
  if (!failure.empty()) throw std::runtime_error(failure);
  return done - start;
}

}  // namespace stallbench
