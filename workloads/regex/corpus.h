// Ordinary text for the throughput benchmark: generated, deterministic, ASCII prose in lines of
// 40-100 characters, with a few names (Sherlock, Holmes, Watson, ...) sprinkled in so the
// throughput patterns have something rare to find. Nothing about it is adversarial.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stallbench::regex {

struct Corpus {
  std::string text;                     // lines joined by '\n'
  std::vector<std::string_view> lines;  // views into text, without the '\n'
};

// About `bytes` bytes (whole lines), the same text for the same size on every machine.
Corpus make_corpus(std::size_t bytes);

struct ThroughputPattern {
  std::string name;
  std::string regex;
  std::string analysis;
};

// literal, alternation, word-context (issue 5, point 6).
const std::vector<ThroughputPattern>& throughput_patterns();

// How many lines each throughput pattern matches, by plain string scanning: the answer every
// engine's count is checked against. Throws std::invalid_argument on an unknown name.
std::size_t reference_matching_lines(const std::string& pattern, std::span<const std::string_view> lines);

}  // namespace stallbench::regex
