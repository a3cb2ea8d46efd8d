// Every regex adapter gives the same answers on a table of small patterns and inputs, in search
// and full-match mode; refusals and guards come back as what they are, with the engine's message.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <span>
#include <sstream>
#include <utility>
#include <vector>

#include "workloads/regex/engine.h"
#include "workloads/regex/engines.h"
#include "workloads/regex/every_match.h"

namespace rx = stallbench::regex;

namespace {

struct Case {
  const char* pattern;
  const char* input;
  bool search;  // matches somewhere
  bool full;    // matches the whole input
};

// The common dialect: classes, anchors, alternation, counted repeats, escapes, and the cases
// where engines' defaults differ unless the adapters align them (. against a newline, multiline ^).
const Case kTable[] = {
    {"abc", "xxabcxx", true, false},
    {"abc", "abc", true, true},
    {"^abc$", "abc", true, true},
    {"^abc$", "abcd", false, false},
    {"a|b", "xbx", true, false},
    {"(a|b)*", "abab", true, true},
    {"^(a|b)*$", "abca", false, false},
    {"[A-Z0-9]+-?", "BOOK-", true, true},
    {"^([A-Z0-9]+-?)+$", "BOOKSTORE2026!", false, false},
    {"^([A-Z0-9]+-?)+$", "BOOK-2026-", true, true},
    {"^[A-Z0-9]+(-[A-Z0-9]+)*$", "BOOK-2026-", false, false},
    {"\\d{3}", "ab1234", true, false},
    {"\\d{3}", "123", true, true},
    {"\\w+\\s+Holmes\\s+\\w+", "said Holmes quietly", true, true},
    {"\\w+\\s+Holmes\\s+\\w+", "Holmes.", false, false},
    {"\\s+$", "a   ", true, false},
    {"\\s+$", "a   a", false, false},
    {"a.b", "a\nb", false, false},        // . does not match a newline
    {"^b", "a\nb", false, false},         // ^ only at the start
    {".*.*=.*", "xxxx", false, false},
    {".*.*=.*", "a=b", true, true},
    {"(.*a){3}", "xaxaxa", true, true},
    {"", "", true, true},
    {"a*", "", true, true},
    {"[^a]", "aaa", false, false},
};

// The V8 engines need a Node binary: the first `node` on PATH, when there is one.
std::string node_on_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/node";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::vector<std::string> engines() {
  std::vector<std::string> names;
  for (const auto& name : rx::engine_names())
    if (!rx::runs_in_node(name) || !node_on_path().empty()) names.push_back(name);
  EXPECT_NE(std::find(names.begin(), names.end(), "std"), names.end());  // always built
  return names;
}

bool built(const std::string& engine) {
  auto names = rx::engine_names();
  return std::find(names.begin(), names.end(), engine) != names.end();
}

std::unique_ptr<rx::Regex> compile(const std::string& engine, const char* pattern, rx::Anchoring anchoring,
                                   const char* flags = "") {
  return rx::compile(engine, pattern, {.anchoring = anchoring, .flags = rx::Flags::parse(flags), .node = node_on_path()});
}

bool answer(const std::string& engine, const char* pattern, rx::Anchoring anchoring, const char* input) {
  return compile(engine, pattern, anchoring)->matches(input);
}

}  // namespace

// Ruby's ^ and $ always match at line breaks (it has no single-line mode for them): the cases whose
// input holds a newline are pinned down for Ruby apart (RubyAnchorsMatchAtLineBreaks).
bool ruby_line_anchors(const std::string& engine, const Case& c) {
  return engine == "ruby" && std::string(c.input).find('\n') != std::string::npos;
}

TEST(RegexAdapters, AgreeOnTheTable) {
  for (const auto& engine : engines()) {
    for (const auto& c : kTable) {
      if (ruby_line_anchors(engine, c)) continue;
      SCOPED_TRACE(engine + " /" + c.pattern + "/ on \"" + c.input + "\"");
      EXPECT_EQ(answer(engine, c.pattern, rx::Anchoring::search, c.input), c.search);
      EXPECT_EQ(answer(engine, c.pattern, rx::Anchoring::full, c.input), c.full);
    }
  }
}

// `$` before a final newline: every adapter makes it match only at the very end, except those
// whose engine has no such option: Hyperscan, Python's re, java.util.regex, and Ruby (whose `$` is
// any line's end). An input ending in a newline shows it as their wrong answers; this test pins
// the difference down.
TEST(RegexAdapters, DollarBeforeAFinalNewline) {
  const std::vector<std::string> differing{"hyperscan", "python", "java", "ruby"};
  for (const auto& engine : engines()) {
    SCOPED_TRACE(engine);
    bool differs = std::find(differing.begin(), differing.end(), engine) != differing.end();
    EXPECT_EQ(answer(engine, "x$", rx::Anchoring::search, "x\n"), differs);
  }
}

TEST(RegexAdapters, RubyAnchorsMatchAtLineBreaks) {
  if (!built("ruby")) GTEST_SKIP() << "ruby not built";
  EXPECT_TRUE(answer("ruby", "^b", rx::Anchoring::search, "a\nb"));
  EXPECT_TRUE(answer("ruby", "a$", rx::Anchoring::search, "a\nb"));
  EXPECT_FALSE(answer("ruby", "a.b", rx::Anchoring::search, "a\nb"));  // `.` still stops at a newline
}

// Every engine of the table is in this build, or the test says in one line which are not and
// which packages bring them: the engines' tests above then run without them.
TEST(RegexAdapters, EveryEngineIsBuiltOrNamedAsMissing) {
  std::string missing;
  for (const auto& info : rx::all_engines()) {
    EXPECT_FALSE(info.kind.empty() || info.semantics.empty() || info.implementation.empty()) << info.name;
    // Only V8 comes without a Debian package: with the Node lines, from npm.
    EXPECT_EQ(info.package.empty(), info.per_node_line) << info.name;
    if (!info.available) missing += (missing.empty() ? "" : ", ") + info.name + " (" + info.package + ")";
  }
  if (!missing.empty()) GTEST_SKIP() << "engines not in this build: " << missing;
}

TEST(RegexAdapters, BatchCountsMatches) {
  for (const auto& engine : engines()) {
    SCOPED_TRACE(engine);
    auto regex = compile(engine, "^a+$", rx::Anchoring::search);
    std::string_view inputs[] = {"aaa", "ab", "a"};
    rx::Batch batch = regex->run_batch(inputs, 3);
    EXPECT_EQ(batch.matched, 6u);
    EXPECT_GE(batch.ms, 0.0);
    // Inputs of the same sizes with other answers, then the first ones again: an engine that keeps
    // its inputs between batches (V8's, in node) must see each change.
    std::string_view others[] = {"aab", "aa", "b"};
    EXPECT_EQ(regex->run_batch(others, 2).matched, 2u);
    EXPECT_EQ(regex->run_batch(inputs, 1).matched, 2u);
  }
}

// One match timed by the rounds protocol: every engine (each program reads the request's five
// numbers) answers with the first run's match and a time, with any of the three round counts.
TEST(RegexAdapters, EveryEngineTimesAMatchByTheRounds) {
  const rx::Rounds every_round{.below_ms = 1e9, .one_round_from_ms = 1e9};
  const rx::Rounds one_round{.below_ms = 1e9, .one_round_from_ms = 0};
  const rx::Rounds none{.below_ms = 0};
  for (const auto& engine : engines()) {
    SCOPED_TRACE(engine);
    auto regex = compile(engine, "^a+$", rx::Anchoring::search);
    for (const auto& rounds : {every_round, one_round, none}) {
      rx::Batch yes = regex->fastest("aaa", rounds);
      EXPECT_EQ(yes.matched, 1u);
      EXPECT_GE(yes.ms, 0.0);
      EXPECT_EQ(regex->fastest("ab", rounds).matched, 0u);
    }
  }
}

// A Regex whose batches take the times it is given, counting them: how many rounds follow a first
// run of each duration.
class ScriptedBatches : public rx::Regex {
 public:
  explicit ScriptedBatches(double first_ms) : first_ms_(first_ms) {}
  bool matches(std::string_view) override { return true; }
  rx::Batch run_batch(std::span<const std::string_view>, int repeat) override {
    ++batches;
    return {static_cast<std::size_t>(repeat), batches == 1 ? first_ms_ : first_ms_ * repeat / 2};
  }
  int batches = 0;

 private:
  double first_ms_;
};

TEST(RegexRounds, AFirstRunsDurationDecidesHowManyRoundsFollow) {
  const rx::Rounds rounds{};  // 3 rounds; one from 5 ms; none from 20 ms
  for (const auto& [first_ms, batches] : std::vector<std::pair<double, int>>{{0.01, 4}, {4.9, 4}, {5, 2}, {19.9, 2}, {20, 1}}) {
    SCOPED_TRACE(first_ms);
    ScriptedBatches regex(first_ms);
    rx::Batch found = regex.fastest("a", rounds);
    EXPECT_EQ(regex.batches, batches);
    EXPECT_EQ(found.matched, 1u);  // the first run's
    EXPECT_DOUBLE_EQ(found.ms, batches == 1 ? first_ms : first_ms / 2);  // the fastest round, per match
  }
}

// A whole set answered at once (one request to an engine's program) says what each input alone
// says, in order, and an empty set is an empty answer.
TEST(RegexAdapters, AnswersOfASetAreEachInputsAnswer) {
  for (const auto& engine : engines()) {
    SCOPED_TRACE(engine);
    auto regex = compile(engine, "^a+$", rx::Anchoring::search);
    std::string_view inputs[] = {"aaa", "ab", "a", "", "aa"};
    std::string one_by_one;
    for (auto input : inputs) one_by_one.push_back(regex->matches(input) ? '1' : '0');
    EXPECT_EQ(one_by_one, "10101");
    EXPECT_EQ(regex->answers(inputs), one_by_one);
    EXPECT_EQ(regex->answers({}), "");
    std::string_view other[] = {"b", "aa", "ba"};
    EXPECT_EQ(regex->answers(other), "010");  // a new set replaces the one the program had
  }
}

TEST(RegexAdapters, Re2RefusesABackreferenceWithItsMessage) {
  if (!built("re2")) GTEST_SKIP() << "RE2 not built";
  try {
    compile("re2", "(a)\\1", rx::Anchoring::search);
    FAIL() << "RE2 accepted a backreference";
  } catch (const rx::EngineFailure& e) {
    EXPECT_EQ(e.status, "rejected");
    EXPECT_NE(std::string(e.what()).find("\\1"), std::string::npos) << e.what();
  }
  for (const char* backtracker : {"std", "boost", "pcre2"}) {  // the backtracking engines take it
    if (built(backtracker)) {
      EXPECT_TRUE(compile(backtracker, "(a)\\1", rx::Anchoring::search)->matches("xaa"));
    }
  }
}

TEST(RegexAdapters, SyntaxErrorsAreRejectedByEveryEngine) {
  for (const auto& engine : engines()) {
    SCOPED_TRACE(engine);
    try {
      compile(engine, "(unclosed", rx::Anchoring::search);
      FAIL() << "accepted an unbalanced parenthesis";
    } catch (const rx::EngineFailure& e) {
      EXPECT_EQ(e.status, "rejected");
      EXPECT_STRNE(e.what(), "");
    }
  }
}

// The guards fire as `guarded` with the engine's message, on the seed's pattern at a length where
// every backtracking engine with a guard has given up and none without one is asked.
TEST(RegexAdapters, GuardsAreReportedAsGuarded) {
  std::string input = "BOOKSTORE2026BOOKSTORE2026BOOKSTOR!";  // 35 characters: 2^34 ways to split
  for (const char* engine : {"boost", "pcre2", "pcre2-jit"}) {
    if (!built(engine)) continue;
    SCOPED_TRACE(engine);
    auto regex = compile(engine, "^([A-Z0-9]+-?)+$", rx::Anchoring::search);
    try {
      regex->matches(input);
      FAIL() << "no guard fired";
    } catch (const rx::EngineFailure& e) {
      EXPECT_EQ(e.status, "guarded");
      std::string message = e.what();
      EXPECT_TRUE(message.find("error_complexity") != std::string::npos ||
                  message.find("match limit") != std::string::npos)
          << message;
    }
  }
}

TEST(RegexAdapters, VersionsAreRecorded) {
  for (const auto& [library, version] : rx::engine_versions()) {
    SCOPED_TRACE(library);
    EXPECT_FALSE(version.empty());
  }
}

TEST(RegexAdapters, UnknownEngineIsAnError) {
  EXPECT_THROW(rx::compile("perl", "a", rx::Anchoring::search), std::invalid_argument);
  EXPECT_THROW(rx::Flags::parse("iq"), std::invalid_argument);
  EXPECT_EQ(rx::Flags::parse("yusmig").letters(), "imsugy");
}

// A global replace's loop (every_match.h): from the end of each match, one character on after an
// empty one (a whole UTF-8 character with u), until none is found.
TEST(RegexAdapters, EveryMatchGoesOnFromEachMatchsEnd) {
  std::vector<std::size_t> asked;
  auto empty_then_pairs = [&](std::size_t from) -> rx::Found {
    asked.push_back(from);
    if (from >= 7) return std::nullopt;
    return from == 0 ? rx::Found({0, 0}) : rx::Found({from, from + 2});
  };
  rx::Flags global = rx::Flags::parse("g");
  EXPECT_TRUE(rx::every_match("abcdefg", global, empty_then_pairs));
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 1, 3, 5, 7}));
  asked.clear();
  EXPECT_TRUE(rx::every_match("abcdefg", rx::Flags{}, empty_then_pairs));
  EXPECT_EQ(asked, std::vector<std::size_t>{0});  // without g: one search
  asked.clear();
  auto empties = [&](std::size_t from) -> rx::Found { asked.push_back(from); return rx::Found({from, from}); };
  EXPECT_TRUE(rx::every_match("\xc3\xa9" "a", rx::Flags::parse("gu"), empties));
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 2, 3}));  // é is one character: never inside it
}

// A flag runs on the engines that can honour it and is `rejected`, naming the flag, on the others:
// the table says which (`flags`): i and g everywhere; s (dotAll) not in std::regex; u (code points)
// neither in std::regex nor in Boost; y (sticky) not in Hyperscan, Go or Rust.
TEST(RegexAdapters, FlagsAreHonouredOrRejected) {
  struct FlagCase {
    const char* flags;
    const char* pattern;
    const char* input;
    bool matches;
  };
  const FlagCase cases[] = {
      {"i", "^abc$", "AbC", true},
      {"s", "a.b", "a\nb", true},
      {"m", "^b$", "a\nb\nc", true},
      {"u", "^.$", "\xc3\xa9", true},  // é in UTF-8: one code point
      {"y", "b", "ab", false},        // sticky: a match only where the search stands, the start
      {"g", "a|b", "ab", true},       // global: every match, the answer whether there was one
  };
  std::map<std::string, std::string> honoured;
  for (const auto& info : rx::all_engines()) honoured[info.name] = info.flags;
  EXPECT_EQ(honoured["std"], "imgy");
  EXPECT_EQ(honoured["boost"], "imsgy");
  for (const auto& c : cases) {
    for (const auto& engine : engines()) {
      SCOPED_TRACE(engine + " /" + c.pattern + "/" + c.flags);
      bool refuses = honoured[engine].find(c.flags) == std::string::npos;
      try {
        auto regex = compile(engine, c.pattern, rx::Anchoring::search, c.flags);
        EXPECT_EQ(regex->matches(c.input), c.matches);
        // A set answered in one request runs the flag as a match does (twice: g and y keep no state).
        std::string_view twice[] = {c.input, c.input};
        EXPECT_EQ(regex->answers(twice), std::string(2, c.matches ? '1' : '0'));
        EXPECT_FALSE(refuses) << "accepted a flag it cannot honour";
      } catch (const rx::EngineFailure& e) {
        EXPECT_TRUE(refuses) << e.what();
        EXPECT_EQ(e.status, "rejected");
        EXPECT_NE(std::string(e.what()).find(std::string("flag ") + c.flags), std::string::npos) << e.what();
      }
    }
    // Without the flag the same input is not matched (bytes, no dotAll, one line).
    if (std::string("smu").find(c.flags) != std::string::npos) {
      EXPECT_FALSE(compile("std", c.pattern, rx::Anchoring::search)->matches(c.input));
    }
  }
}
