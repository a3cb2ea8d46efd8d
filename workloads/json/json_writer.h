// Writes JSON text value by value and keeps, as it goes, the walk answer every parser must give
// for it (values, decoded string bytes, the sum of the numbers as written): a generated document's
// answer comes from what was written, never from parsing it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "answer.h"

namespace stallbench {

class JsonWriter {
 public:
  enum class Escape { utf8, ascii };  // ascii: non-ASCII as \u escapes (surrogate pairs above U+FFFF)

  explicit JsonWriter(std::size_t reserve = 0) { text_.reserve(reserve); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void key(std::string_view decoded);  // the next value is this member's
  void string(std::string_view decoded, Escape escape = Escape::utf8);
  void number(double value);           // the shortest text that reads back as exactly `value`
  void integer(std::int64_t value);
  void boolean(bool value);
  void null();

  std::size_t size() const { return text_.size(); }
  const WalkAnswer& answer() const { return answer_; }
  std::string take() { return std::move(text_); }

 private:
  void separate();  // the comma before a value or key, unless it is the first or follows a key
  void open(char bracket);
  void close(char bracket);
  void escaped(std::string_view decoded, Escape escape);

  std::string text_;
  WalkAnswer answer_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace stallbench
