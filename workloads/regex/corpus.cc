#include "corpus.h"

#include <array>
#include <cctype>
#include <functional>
#include <cstdint>
#include <stdexcept>

namespace stallbench::regex {
namespace {

constexpr std::array kWords = {
    "the",    "of",      "and",     "to",     "in",      "a",       "is",     "that",    "was",     "he",
    "for",    "it",      "with",    "as",     "his",     "on",      "be",     "at",      "by",      "had",
    "not",    "are",     "but",     "from",   "or",      "have",    "an",     "they",    "which",   "one",
    "you",    "were",    "her",     "all",    "she",     "there",   "would",  "their",   "we",      "him",
    "been",   "has",     "when",    "who",    "will",    "more",    "no",     "if",      "out",     "so",
    "said",   "what",    "up",      "its",    "about",   "into",    "than",   "them",    "can",     "only",
    "other",  "new",     "some",    "could",  "time",    "these",   "two",    "may",     "then",    "do",
    "first",  "any",     "my",      "now",    "such",    "like",    "our",    "over",    "man",     "me",
    "even",   "most",    "made",    "after",  "also",    "did",     "many",   "before",  "must",    "through",
    "back",   "years",   "where",   "much",   "your",    "way",     "well",   "down",    "should",  "because",
    "each",   "just",    "those",   "people", "how",     "too",     "little", "state",   "good",    "very",
    "make",   "world",   "still",   "own",    "see",     "men",     "work",   "long",    "get",     "here",
    "between", "both",   "life",    "being",  "under",   "never",   "day",    "same",    "another", "know",
    "while",  "last",    "might",   "us",     "great",   "old",     "year",   "off",     "come",    "since",
    "against", "go",     "came",    "right",  "used",    "take",    "three",  "house",   "door",    "street",
    "window", "letter",  "evening", "morning", "night",  "room",    "table",  "chair",   "lamp",    "fire",
    "London", "Baker",   "inspector", "doctor", "case",  "clue",    "train",  "station", "river",   "bridge",
};
constexpr std::array kNames = {"Sherlock", "Holmes", "Watson", "Irene", "Adler", "Lestrade", "Hudson", "Moriarty"};

// splitmix64: a tiny generator whose sequence is fixed by its definition (std's distributions are
// not), so the corpus is the same everywhere.
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

std::string make_line(SplitMix& rng) {
  std::size_t target = 40 + rng.below(61);
  std::string line;
  bool sentence_start = true;
  while (line.size() < target) {
    if (!line.empty()) line.push_back(' ');
    std::string word = rng.below(40) == 0 ? kNames[rng.below(kNames.size())] : kWords[rng.below(kWords.size())];
    if (sentence_start && word[0] >= 'a' && word[0] <= 'z') word[0] = static_cast<char>(word[0] - 'a' + 'A');
    line += word;
    sentence_start = false;
    if (std::size_t r = rng.below(16); r == 0) {
      line.push_back('.');
      sentence_start = true;
    } else if (r == 1) {
      line.push_back(',');
    }
  }
  return line;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

bool contains_any(std::string_view line, std::initializer_list<std::string_view> words) {
  for (auto w : words)
    if (line.find(w) != std::string_view::npos) return true;
  return false;
}

// \w+\s+Holmes\s+\w+: some "Holmes" with whitespace then a word character on both sides.
bool holmes_in_context(std::string_view line) {
  constexpr std::string_view kWord = "Holmes";
  for (auto at = line.find(kWord); at != std::string_view::npos; at = line.find(kWord, at + 1)) {
    std::size_t left = at, right = at + kWord.size();
    if (left == 0 || !is_space(line[left - 1])) continue;
    while (left > 0 && is_space(line[left - 1])) --left;
    if (right >= line.size() || !is_space(line[right])) continue;
    while (right < line.size() && is_space(line[right])) ++right;
    if (left > 0 && is_word(line[left - 1]) && right < line.size() && is_word(line[right])) return true;
  }
  return false;
}

}  // namespace

std::size_t reference_matching_lines(const std::string& pattern, std::span<const std::string_view> lines) {
  std::function<bool(std::string_view)> matches;
  if (pattern == "literal") {
    matches = [](std::string_view line) { return contains_any(line, {"Sherlock Holmes"}); };
  } else if (pattern == "alternation") {
    matches = [](std::string_view line) { return contains_any(line, {"Sherlock", "Holmes", "Watson", "Irene", "Adler"}); };
  } else if (pattern == "word-context") {
    matches = holmes_in_context;
  } else {
    throw std::invalid_argument("no throughput pattern '" + pattern + "'");
  }
  std::size_t count = 0;
  for (auto line : lines) count += matches(line) ? 1 : 0;
  return count;
}

Corpus make_corpus(std::size_t bytes) {
  if (bytes == 0) throw std::invalid_argument("corpus size must be positive");
  Corpus corpus;
  SplitMix rng{20261130};
  std::vector<std::size_t> ends;
  while (corpus.text.size() < bytes) {
    corpus.text += make_line(rng);
    ends.push_back(corpus.text.size());
    corpus.text.push_back('\n');
  }
  std::size_t start = 0;
  for (std::size_t end : ends) {
    corpus.lines.emplace_back(corpus.text.data() + start, end - start);
    start = end + 1;
  }
  return corpus;
}

const std::vector<ThroughputPattern>& throughput_patterns() {
  static const std::vector<ThroughputPattern> patterns = {
      {"literal", "Sherlock Holmes",
       "A plain literal: engines with a literal prefilter (memchr/SIMD) barely touch most lines."},
      {"alternation", "Sherlock|Holmes|Watson|Irene|Adler",
       "An alternation of words: backtracking engines try each branch at each position unless they build "
       "a set of first characters; automata engines run one pass."},
      {"word-context", "\\w+\\s+Holmes\\s+\\w+",
       "A word around a rare word: no literal prefix, so a backtracking engine starts \\w+ at every word "
       "character and gives it back; engines that find the inner literal first skip most lines."},
  };
  return patterns;
}

}  // namespace stallbench::regex
