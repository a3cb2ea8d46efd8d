// The regex workload around the engines: the catalogue, the attack-input recipe, the timing loop
// within a budget, and the throughput corpus with its reference count.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "workloads/regex/catalogue.h"
#include "workloads/regex/corpus.h"
#include "workloads/regex/engine.h"
#include "workloads/regex/engines.h"
#include "workloads/regex/measure.h"

namespace rx = stallbench::regex;

namespace {

struct TempCatalogues {
  std::vector<std::string> paths;
  ~TempCatalogues() {
    for (const std::string& path : paths) std::remove(path.c_str());
  }
};

// ctest runs each test as its own process, two at once: a file name of one process's own, so one
// test never reads the catalogue another has just written.
std::string write_temp(const std::string& text) {
  static TempCatalogues written;
  std::string path = testing::TempDir() + "/regex_catalogue_test-" + std::to_string(::getpid()) + "-" +
                     std::to_string(written.paths.size()) + ".toml";
  written.paths.push_back(path);
  std::ofstream(path) << text;
  return path;
}

}  // namespace

// The input is prefix + k whole pumps + suffix: a pump is never cut to fill a length.
TEST(AttackInput, WholePumps) {
  rx::Pattern coupon{.name = "coupon-code", .suffix = "!", .pumps = {{"", "BOOKSTORE2026"}}};
  EXPECT_EQ(rx::attack_input(coupon, 27), "BOOKSTORE2026BOOKSTORE2026!");
  EXPECT_EQ(rx::attack_input(coupon, 1), "!");
  for (std::int64_t cut : {0, 2, 20, 26, 28}) EXPECT_THROW(rx::attack_input(coupon, cut), std::invalid_argument) << cut;
  rx::Pattern spaces{.name = "ws", .prefix = "a", .suffix = "a", .pumps = {{"", " "}}};
  EXPECT_EQ(rx::attack_input(spaces, 5), "a   a");
  rx::Pattern none{.name = "unanalysed"};
  EXPECT_THROW(rx::attack_input(none, 5), std::invalid_argument);
}

// recheck's polynomial attacks pump two places: each pump is repeated the same number of times.
TEST(AttackInput, SeveralPumpsRepeatTogether) {
  rx::Pattern two{.name = "two", .prefix = "<", .suffix = ">", .pumps = {{"", "a"}, {"=", "bc"}}};
  EXPECT_EQ(rx::attack_input(two, 3), "<=>");
  EXPECT_EQ(rx::attack_input(two, 9), "<aa=bcbc>");
  EXPECT_THROW(rx::attack_input(two, 8), std::invalid_argument);
}

// With the u flag a pump is whole UTF-8 text, so the input is too.
TEST(AttackInput, UnicodePumpsStayWhole) {
  rx::Pattern accents{.name = "e", .flags = rx::Flags::parse("u"), .pumps = {{"", "\xc3\xa9"}}};
  EXPECT_EQ(rx::attack_input(accents, 4), "\xc3\xa9\xc3\xa9");
  EXPECT_THROW(rx::attack_input(accents, 5), std::invalid_argument);
}

TEST(AttackInput, EscapesAreBytes) {
  EXPECT_EQ(rx::decode_input("a\\x1b[\\x00"), std::string("a\x1b[\0", 4));
  EXPECT_EQ(rx::decode_input("\\u{e9}\\u{1F600}\\\\"), "\xc3\xa9\xf0\x9f\x98\x80\\");
  EXPECT_EQ(rx::decode_input("\\xff"), "\xff");
  for (const char* bad : {"\\q", "\\x1", "\\u{}", "\\u{110000}", "\\u{d800}", "\\u12", "\\"})
    EXPECT_THROW(rx::decode_input(bad), std::invalid_argument) << bad;
}

TEST(Catalogue, ShippedCatalogueLoadsWithVariants) {
  auto catalogue = rx::Catalogue::load(STALLBENCH_TEST_CATALOGUE);
  auto names = catalogue.variant_names();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "coupon-code");
  EXPECT_EQ(names[1], "coupon-code.safe");
  EXPECT_EQ(catalogue.variant("coupon-code").regex, "^([A-Z0-9]+-?)+$");
  EXPECT_EQ(catalogue.variant("coupon-code.safe").regex, "^[A-Z0-9]+(-[A-Z0-9]+)*$");
  EXPECT_THROW(catalogue.variant("no-such"), std::invalid_argument);
}

TEST(Catalogue, RefusesWhatItCannotRead) {
  EXPECT_THROW(rx::Catalogue::load(write_temp("[[pattern]\n")), std::runtime_error);
  EXPECT_THROW(rx::Catalogue::load(write_temp("[[pattern]]\nname = \"x\"\nregex = \"a\"\nflags = \"q\"\nsource = \"s\"\n")),
               std::runtime_error);
  EXPECT_THROW(rx::Catalogue::load(
                   write_temp("format = 2\n[[pattern]]\nname = \"x\"\nregex = \"a\"\npump = '\\q'\nsource = \"s\"\n")),
               std::runtime_error);
  EXPECT_THROW(rx::Catalogue::load(write_temp("[[pattern]]\nname = \"x\"\nregex = \"a\"\npump = \"\"\nsource = \"s\"\n")),
               std::runtime_error);
  // A float where an integer belongs is refused, not converted (1e300 converted is undefined).
  for (const char* text : {"format = 1e300\n[[pattern]]\nname = \"x\"\nregex = \"a\"\nsource = \"s\"\n",
                           "[[pattern]]\nname = \"x\"\nregex = \"a+\"\npump = \"a\"\nsource = \"s\"\nlengths = [1e300]\n",
                           "[[pattern]]\nname = \"x\"\nregex = \"a+\"\npump = \"a\"\nsource = \"s\"\nlengths = [2.0]\n"})
    EXPECT_THROW(rx::Catalogue::load(write_temp(text)), std::runtime_error) << text;
  auto ok = rx::Catalogue::load(write_temp("[[pattern]]\nname = \"x\"\nregex = \"a+\"\npump = \"a\"\nsource = \"s\"\n"
                                           "lengths = [1, 2]\n"));
  EXPECT_EQ(ok.patterns().at(0).lengths, (std::vector<std::int64_t>{1, 2}));
  // No attack yet (the orchestrator finds one), flags, several pumps with escapes.
  auto resolved = rx::Catalogue::load(write_temp(
      "format = 2\n[[pattern]]\nname = \"x\"\nregex = \"a\"\nsource = \"s\"\n"
      "[[pattern]]\nname = \"y\"\nregex = \"a\"\nflags = \"is\"\nsource = \"s\"\n"
      "pumps = [{before = '\\x00', pump = \"a\"}, {pump = \"b\"}]\nsafe_lengths = [9]\n"));
  EXPECT_TRUE(resolved.patterns().at(0).pumps.empty());
  const auto& y = resolved.patterns().at(1);
  EXPECT_TRUE(y.flags.ignore_case && y.flags.dot_all && !y.flags.unicode);
  EXPECT_EQ(rx::attack_input(y, 5), std::string("\0aabb", 5));
  EXPECT_EQ(y.safe_lengths, (std::vector<std::int64_t>{9}));
}

// A catalogue without `format` was written before the escapes: its backslashes are backslashes (a
// user's `pump = '\[\]('` kept working); format 2 reads the escapes; any other format is refused.
TEST(Catalogue, ReadsEachFormatAsItWasWritten) {
  const char* entry = "[[pattern]]\nname = \"x\"\nregex = \"a\"\npump = '\\[\\]('\nsource = \"s\"\n";
  auto old = rx::Catalogue::load(write_temp(entry));
  EXPECT_EQ(old.patterns().at(0).pumps.at(0).pump, "\\[\\](");
  EXPECT_THROW(rx::Catalogue::load(write_temp(std::string("format = 2\n") + entry)), std::runtime_error);
  auto current = rx::Catalogue::load(write_temp(
      "format = 2\n[[pattern]]\nname = \"x\"\nregex = \"a\"\npump = '\\\\[\\\\]('\nprefix = '\\x41'\nsource = \"s\"\n"));
  EXPECT_EQ(current.patterns().at(0).pumps.at(0).pump, "\\[\\](");
  EXPECT_EQ(current.patterns().at(0).prefix, "A");
  EXPECT_THROW(rx::Catalogue::load(write_temp(std::string("format = 3\n[[pattern]]\nname = \"x\"\nregex = \"a\"\n"
                                                          "source = \"s\"\n"))),
               std::runtime_error);
}

TEST(TimeMatch, StaysInsideTheBudgetAndKeepsTheAnswer) {
  auto regex = rx::compile("std", "^(a+)+$", rx::Anchoring::search);
  // A budget far past what the samples take, so that how many fit does not depend on how fast this
  // machine is at the moment (200 ms held no sample beside a busy build); the budget already spent
  // is the next test's.
  rx::TimingPlan ample{.budget_ms = 60'000};
  auto timing = rx::time_match(*regex, "aaaaaaaaaaaaaaaa!", "a!", rx::Clock::now(), ample);
  EXPECT_FALSE(timing.matched);
  EXPECT_EQ(timing.samples, ample.max_samples);
  EXPECT_GT(timing.median_ms, 0);
  auto fast = rx::time_match(*regex, "aaaa", "a", rx::Clock::now(), ample);
  EXPECT_TRUE(fast.matched);
}

TEST(TimeMatch, SlowMatchIsMeasuredOnceCold) {
  // A budget smaller than one match: the warm-up is the only match, reported with samples = 0.
  auto regex = rx::compile("std", "^(a+)+$", rx::Anchoring::search);
  rx::TimingPlan plan{.budget_ms = 0.001};
  auto timing = rx::time_match(*regex, "aaaaaaaaaaaa!", "a!", rx::Clock::now(), plan);
  EXPECT_EQ(timing.samples, 0);
  EXPECT_GT(timing.median_ms, 0);
}

TEST(Corpus, DeterministicAndCountedLikeTheEngines) {
  auto a = rx::make_corpus(100'000), b = rx::make_corpus(100'000);
  EXPECT_EQ(a.text, b.text);
  EXPECT_GE(a.text.size(), 100'000u);
  for (const auto& pattern : rx::throughput_patterns()) {
    SCOPED_TRACE(pattern.name);
    std::size_t expected = rx::reference_matching_lines(pattern.name, a.lines);
    for (const auto& engine : rx::engine_names()) {
      if (rx::runs_in_node(engine)) continue;  // regex_adapters_test runs V8 on the same answers
      SCOPED_TRACE(engine);
      auto regex = rx::compile(engine, pattern.regex, rx::Anchoring::search);
      EXPECT_EQ(regex->run_batch(a.lines, 1).matched, expected);
    }
  }
  EXPECT_GT(rx::reference_matching_lines("alternation", a.lines), 0u);
  EXPECT_THROW(rx::reference_matching_lines("nope", a.lines), std::invalid_argument);
}
