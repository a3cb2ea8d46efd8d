#include "deflate_job.h"

#include <zlib.h>

#include <stdexcept>
#include <vector>

namespace stallbench {
namespace {

std::vector<unsigned char> compress_bytes(const std::string& input) {
  uLongf length = compressBound(input.size());
  std::vector<unsigned char> out(length);
  int rc = compress2(out.data(), &length, reinterpret_cast<const Bytef*>(input.data()), input.size(),
                     Z_DEFAULT_COMPRESSION);
  if (rc != Z_OK) throw std::runtime_error(std::string("zlib compress2: ") + zError(rc));
  out.resize(length);
  return out;
}

}  // namespace

std::string compressible_text(std::size_t size) {
  static const char* const words[] = {"{\"orderId\":", "\"isbn\":\"9780441172719\",", "\"quantity\":", "2,",
                                      "\"unitPrice\":349.9,", "\"status\":\"Paid\"},", "\n"};
  std::string text;
  text.reserve(size + 32);
  std::uint32_t state = 2463534242u;  // xorshift: varied but reproducible digits
  while (text.size() < size) {
    for (const char* w : words) text += w;
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    text += std::to_string(state % 100000);
  }
  text.resize(size);
  return text;
}

Deflated deflate_text(const std::string& input) {
  auto out = compress_bytes(input);
  return {out.size(), static_cast<std::uint32_t>(crc32(0L, out.data(), static_cast<uInt>(out.size())))};
}

bool deflate_round_trips(const std::string& input) {
  auto packed = compress_bytes(input);
  std::string back(input.size(), '\0');
  uLongf length = back.size();
  int rc = uncompress(reinterpret_cast<Bytef*>(back.data()), &length, packed.data(), packed.size());
  return rc == Z_OK && length == input.size() && back == input;
}

}  // namespace stallbench
