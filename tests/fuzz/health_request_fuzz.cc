// The /health server's request parsing (workloads/net/http_request_parser.h) on any bytes, fed in
// two pieces split where the first byte says, as reads from a socket split a request.
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/net/http_request_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::size_t split = data[0] % size;
  const char* text = reinterpret_cast<const char*>(data) + 1;
  std::size_t length = size - 1;
  split = split < length ? split : length;
  std::size_t requests = 0;
  stallbench::HttpRequestParser parser([&](const char* method, const std::string& url, bool) {
    requests += method != nullptr && url.size() <= length;  // the URL came from these bytes
  });
  if (parser.feed(text, split)) parser.feed(text + split, length - split);
  return 0;
}
