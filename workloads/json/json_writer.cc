#include "json_writer.h"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace stallbench {

namespace {

// The code point starting at s[i] of valid UTF-8, and its length.
std::pair<std::uint32_t, std::size_t> code_point(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (i + n > s.size()) throw std::invalid_argument("JsonWriter: truncated UTF-8");
  std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return {cp, n};
}

void append_u(std::string& out, std::uint32_t unit) {
  char hex[7];
  // A UTF-16 code unit: four hex digits (the mask tells the compiler so).
  std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(unit & 0xFFFF));
  out += hex;
}

}  // namespace

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) text_ += ',';
  first_.back() = false;
}

void JsonWriter::open(char bracket) {
  separate();
  ++answer_.values;
  text_ += bracket;
  first_.push_back(true);
}

void JsonWriter::close(char bracket) {
  text_ += bracket;
  first_.pop_back();
}

void JsonWriter::key(std::string_view decoded) {
  separate();
  answer_.string_bytes += decoded.size();
  escaped(decoded, Escape::utf8);
  text_ += ':';
  after_key_ = true;
}

void JsonWriter::string(std::string_view decoded, Escape escape) {
  separate();
  ++answer_.values;
  answer_.string_bytes += decoded.size();
  escaped(decoded, escape);
}

void JsonWriter::escaped(std::string_view decoded, Escape escape) {
  text_ += '"';
  for (std::size_t i = 0; i < decoded.size();) {
    char c = decoded[i];
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      auto [cp, n] = code_point(decoded, i);
      if (escape == Escape::utf8) {
        text_.append(decoded.substr(i, n));
      } else if (cp > 0xFFFF) {
        append_u(text_, 0xD800 + ((cp - 0x10000) >> 10));
        append_u(text_, 0xDC00 + ((cp - 0x10000) & 0x3FF));
      } else {
        append_u(text_, cp);
      }
      i += n;
      continue;
    }
    switch (c) {
      case '"': text_ += "\\\""; break;
      case '\\': text_ += "\\\\"; break;
      case '\n': text_ += "\\n"; break;
      case '\t': text_ += "\\t"; break;
      case '\r': text_ += "\\r"; break;
      default:
        if (byte < 0x20) append_u(text_, byte);
        else text_ += c;
    }
    ++i;
  }
  text_ += '"';
}

void JsonWriter::number(double value) {
  separate();
  ++answer_.values;
  answer_.number_sum += value;
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  text_.append(buffer, end);
}

void JsonWriter::integer(std::int64_t value) {
  separate();
  ++answer_.values;
  answer_.number_sum += static_cast<double>(value);
  text_ += std::to_string(value);
}

void JsonWriter::boolean(bool value) {
  separate();
  ++answer_.values;
  text_ += value ? "true" : "false";
}

void JsonWriter::null() {
  separate();
  ++answer_.values;
  text_ += "null";
}

}  // namespace stallbench
