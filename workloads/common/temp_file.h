// A file with known bytes, removed when the object dies: what a read probe reads and checks.
#pragma once

#include <string>

namespace stallbench {

class TempFile {
 public:
  // Creates a file under $TMPDIR (or /tmp) holding `bytes`; throws std::runtime_error on failure.
  explicit TempFile(const std::string& bytes, const std::string& stem = "stallbench");
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string path_;
  std::string bytes_;
};

// `size` bytes of a fixed pattern, so a read that returns the wrong bytes is caught.
std::string patterned_bytes(std::size_t size);

}  // namespace stallbench
