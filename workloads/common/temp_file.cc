#include "temp_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace stallbench {

TempFile::TempFile(const std::string& bytes, const std::string& stem) : bytes_(bytes) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/" + stem + "-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("mkstemp " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(path_.c_str());
      throw std::runtime_error("write " + path_ + ": " + std::strerror(saved));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

TempFile::~TempFile() { ::unlink(path_.c_str()); }

std::string patterned_bytes(std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return bytes;
}

}  // namespace stallbench
