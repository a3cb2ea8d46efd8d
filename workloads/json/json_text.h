// JSON bytes with the zeroed padding simdjson requires after the end (SIMDJSON_PADDING, 64 bytes),
// so one buffer serves every parser without a copy.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace stallbench {

inline constexpr std::size_t kJsonPadding = 64;

class JsonText {
 public:
  JsonText() = default;
  explicit JsonText(std::string text) : storage_(std::move(text)) {
    size_ = storage_.size();
    storage_.append(kJsonPadding, '\0');
  }
  const char* data() const { return storage_.data(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return storage_.size(); }  // size + padding
  std::string_view view() const { return {storage_.data(), size_}; }

 private:
  std::string storage_;
  std::size_t size_ = 0;
};

}  // namespace stallbench
