// A parameter's word to its enum value, where the enum's values are the indexes of its names.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace stallbench {

// Throws std::invalid_argument naming `what` and the valid words.
template <typename Enum>
Enum enum_named(const std::vector<std::string>& names, const std::string& name, const char* what) {
  std::string valid;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
    valid += (i ? ", " : "") + names[i];
  }
  throw std::invalid_argument(std::string("unknown ") + what + " '" + name + "' (valid: " + valid + ")");
}

}  // namespace stallbench
