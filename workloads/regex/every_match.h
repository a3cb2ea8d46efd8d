// JavaScript's g and y flags as the engines run them. With g a global replace (or a loop of exec)
// searches again from the end of each match, one character on after an empty one, until none is
// left: `/^\s*|\s*$/g` (trim 0.0.1, CVE-2020-7753) is quadratic there while one search returns at
// once. With y each match must start where the search stands (sticky): without g, only a match at
// the start of the input counts. The adapters give `find(from)`: the match found searching from
// byte `from` (anchored there with y) as [start, end), or none; the answer is whether one was found.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "engine.h"

namespace stallbench::regex {

using Found = std::optional<std::pair<std::size_t, std::size_t>>;

template <class Find>
bool every_match(std::string_view input, const Flags& flags, Find find) {
  Found match = find(0);
  if (!match || !flags.global) return match.has_value();
  while (match) {
    std::size_t next = match->second;
    if (match->first == match->second) {  // an empty match: one character on (a whole one with u)
      if (next >= input.size()) break;
      ++next;
      while (flags.unicode && next < input.size() && (static_cast<unsigned char>(input[next]) & 0xC0) == 0x80) ++next;
    }
    match = find(next);
  }
  return true;
}

}  // namespace stallbench::regex
