#include "input_file.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace stallbench {

namespace {

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

std::uint64_t mem_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  while (meminfo >> key) {
    if (key == "MemAvailable:" && meminfo >> kb) return kb * 1024;
    meminfo.ignore(4096, '\n');
  }
  return UINT64_MAX;
}

}  // namespace

std::uint64_t usable_memory_bytes() {
  std::uint64_t usable = mem_available_bytes();
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) usable = std::min<std::uint64_t>(usable, limit.rlim_cur);
  return usable;
}

std::string refuse_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "--input " + path + ": " + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return "--input " + path + ": not a regular file";
  auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > kSimdjsonMaxBytes)
    return "--input " + path + " is " + gib(size) + ": over simdjson's 4 GiB document limit (" +
           std::to_string(kSimdjsonMaxBytes) + " bytes at most); refused before parsing";
  std::uint64_t usable = usable_memory_bytes();
  if (size + kJsonPadding > usable)
    return "--input " + path + " is " + gib(size) + ": more than the " + gib(usable) +
           " of memory available to load it; refused before parsing";
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return "--input " + path + ": cannot be read: " + std::strerror(errno);
  return {};
}

JsonText read_input(const std::string& path) {
  if (auto refusal = refuse_input(path); !refusal.empty()) throw std::runtime_error(refusal);
  std::ifstream in(path, std::ios::binary);
  std::string bytes;
  in.seekg(0, std::ios::end);
  bytes.reserve(static_cast<std::size_t>(in.tellg()) + kJsonPadding);
  in.seekg(0);
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("--input " + path + ": read failed");
  return JsonText(std::move(bytes));
}

}  // namespace stallbench
