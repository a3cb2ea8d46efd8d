// pbkdf2 against published vectors: RFC 6070 (HMAC-SHA1) and the widely reproduced SHA-256
// vectors for the same inputs, so the job the pool runs is the real computation.
#include <gtest/gtest.h>

#include "workloads/pool/pbkdf2_job.h"

using namespace stallbench;

static std::string derive(const char* password, const char* salt, int iterations, Digest digest, std::size_t len) {
  Pbkdf2Params p;
  p.password = password;
  p.salt = salt;
  p.iterations = iterations;
  p.digest = digest;
  p.key_length = len;
  return to_hex(pbkdf2(p));
}

TEST(Pbkdf2, Rfc6070Sha1) {
  EXPECT_EQ(derive("password", "salt", 1, Digest::sha1, 20), "0c60c80f961f0e71f3a9b524af6012062fe037a6");
  EXPECT_EQ(derive("password", "salt", 2, Digest::sha1, 20), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957");
  EXPECT_EQ(derive("password", "salt", 4096, Digest::sha1, 20), "4b007901b765489abead49d926f721d065a429c1");
}

TEST(Pbkdf2, Sha256Vectors) {
  EXPECT_EQ(derive("password", "salt", 1, Digest::sha256, 32),
            "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b");
  EXPECT_EQ(derive("password", "salt", 4096, Digest::sha256, 32),
            "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}

TEST(Pbkdf2, DigestNames) {
  EXPECT_EQ(parse_digest("sha512"), Digest::sha512);
  EXPECT_EQ(digest_name(Digest::sha256), "sha256");
  EXPECT_THROW(parse_digest("md5"), std::invalid_argument);
}
