// Scenario files: every shipped one runs to an order it declares right; bad files are refused
// with one line naming the file and the JSON path; the generated JavaScript says the same thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "workloads/loop/scenario.h"

using namespace stallbench::loop;
namespace fs = std::filesystem;

#ifndef STALLBENCH_SCENARIO_DIR
#error "STALLBENCH_SCENARIO_DIR must name workloads/loop/scenarios"
#endif

namespace {

std::vector<std::string> shipped() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(STALLBENCH_SCENARIO_DIR))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A scenario file in a fresh temporary folder, removed afterwards.
class ScenarioFile {
 public:
  explicit ScenarioFile(const std::string& text) {
    dir_ = fs::temp_directory_path() / ("stallbench-scenario-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(dir_);
    path_ = (dir_ / "case.json").string();
    std::ofstream(path_) << text;
  }
  ~ScenarioFile() { fs::remove_all(dir_); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
  std::string path_;
};

// The one-line message load_scenario gives for `text`.
std::string refusal(const std::string& text) {
  ScenarioFile file(text);
  try {
    load_scenario(file.path());
  } catch (const ScenarioError& e) {
    std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(file.path(), 0), 0u) << "does not start with the file's name: " << message;
    return message;
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

}  // namespace

// On the model of every line: what the scenario expects on that line (each was checked against
// the line's real Node with `trace --node all`).
TEST(Scenarios, EveryShippedScenarioGivesAnExpectedOrderOnEveryLine) {
  auto files = shipped();
  ASSERT_GE(files.size(), 30u);
  for (const auto& file : files) {
    Scenario s = load_scenario(file);
    ASSERT_FALSE(s.expect.empty()) << file << " declares no expected order";
    ASSERT_FALSE(s.analysis.empty()) << file << " does not say why it is there";
    for (int line : modelled_lines()) {
      auto order = run_scenario(s, {.line = line});
      const auto& expected = s.expected_on(line);
      EXPECT_NE(std::find(expected.begin(), expected.end(), order), expected.end())
          << s.name << " gave an order it does not expect on Node " << line;
    }
  }
}

TEST(Scenarios, TheSeedsDeterministicOrdersAreDeclaredExactly) {
  auto expect_of = [](const std::string& name) {
    return load_scenario(std::string(STALLBENCH_SCENARIO_DIR) + "/" + name + ".json").expect;
  };
  using Orders = std::vector<std::vector<std::string>>;
  EXPECT_EQ(expect_of("000-io-callback-order"),
            (Orders{{"readFile callback", "process.nextTick", "promise.then", "setImmediate", "setTimeout 0"}}));
  EXPECT_EQ(expect_of("002-sync-nexttick-promise"),
            (Orders{{"1. sync start", "4. sync end", "2. nextTick", "3. promise.then"}}));
  EXPECT_EQ(expect_of("000-esm-promise-before-nexttick"), (Orders{{"promise.then", "process.nextTick"}}));
  EXPECT_EQ(expect_of("003-sync-micro-macro"), (Orders{{"1", "5", "3", "4", "2"}}));
  EXPECT_EQ(expect_of("003-then-chain-and-timeouts"),
            (Orders{{"start", "end", "then 1", "then 2", "timeout 1", "micro in timeout", "timeout 2"}}));
  EXPECT_EQ(expect_of("003-async-await"), (Orders{{"C", "A", "D", "B"}}));
  EXPECT_EQ(expect_of("000-main-timeout-vs-immediate").size(), 2u);  // the race: both orders
}

TEST(Scenarios, ANumberPastADoublesRangeIsRefusedNotThrownThrough) {
  // Found by the fuzzer: nlohmann's out_of_range (406), not a parse_error, escaped the loader.
  auto message = refusal("{\"name\": \"x\", \"delay\": 224444e444}");
  EXPECT_NE(message.find("not valid JSON"), std::string::npos) << message;
  EXPECT_NE(message.find("number overflow"), std::string::npos) << message;
}

TEST(Scenarios, MalformedJson) {
  auto message = refusal("{\"name\": \"x\", \"module\": \"cjs\", \"program\": [}");
  EXPECT_NE(message.find("not valid JSON"), std::string::npos) << message;
  EXPECT_NE(message.find("line 1"), std::string::npos) << message;
}

TEST(Scenarios, UnknownOp) {
  auto message = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "log", "text": "a"}, {"op": "setTimout", "ms": 1}]})");
  EXPECT_NE(message.find("$.program[1].op: unknown op 'setTimout'"), std::string::npos) << message;
  EXPECT_NE(message.find("valid: log, nextTick"), std::string::npos) << message;
}

TEST(Scenarios, NegativeDelayInANestedOp) {
  auto message = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "nextTick", "then": [{"op": "setTimeout", "ms": -5}]}]})");
  EXPECT_NE(message.find("$.program[0].then[0].ms: must be a number of milliseconds from 0 to 10000 (got -5)"),
            std::string::npos) << message;
}

TEST(Scenarios, NonNumericDelay) {
  auto message = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setInterval", "ms": "10", "count": 2}]})");
  EXPECT_NE(message.find("$.program[0].ms: must be a number"), std::string::npos) << message;
  EXPECT_NE(message.find("(got \"10\")"), std::string::npos) << message;
}

TEST(Scenarios, MissingFileToRead) {
  auto message = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "readFile", "path": "no-such-file.txt"}]})");
  EXPECT_NE(message.find("$.program[0].path: no such file"), std::string::npos) << message;
  EXPECT_NE(message.find("no-such-file.txt"), std::string::npos) << message;
}

TEST(Scenarios, OtherMistakesAreNamedToo) {
  EXPECT_NE(refusal(R"({"name": "x", "program": []})").find("$: missing field 'module'"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "amd", "program": []})").find("$.module: must be \"cjs\" or \"esm\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "programme": []})").find("unknown field 'programme'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "nextTick", "ms": 3}]})")
                .find("$.program[0].ms: field 'ms' does not apply to op 'nextTick'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setInterval", "ms": 1, "count": 0}]})")
                .find("$.program[0].count: must be an integer from 1 to 1000"),
            std::string::npos);
  // A number past an integer's range is refused before it is converted (converting it is undefined).
  for (const char* runs : {"1e300", "-1e300", "2.5"})
    EXPECT_NE(refusal(std::string(R"({"name": "x", "module": "cjs", "runs": )") + runs + R"(, "program": []})")
                  .find("$.runs: must be an integer from 1 to 1000"),
              std::string::npos)
        << runs;
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "lookup", "host": "example.invalid"}]})")
                .find("$.program[0].host: refusing to look up 'example.invalid'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "busy"}]})").find("$.program[0]: missing field 'ms'"),
            std::string::npos);
  EXPECT_NE(refusal("[]").find("$: must be an object"), std::string::npos);
}

TEST(Scenarios, AMissingScenarioFile) {
  try {
    load_scenario("/nonexistent/scenario.json");
    FAIL() << "accepted a missing file";
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/scenario.json: no such file");
  }
}

TEST(Scenarios, JavaScriptForCommonJs) {
  ScenarioFile file(R"({"name": "x", "module": "cjs", "program": [
    {"op": "readFile", "then": [{"op": "nextTick", "log": "tick \"quoted\"\nline"}]},
    {"op": "setInterval", "ms": 2.5, "count": 3, "log": "tick"},
    {"op": "await", "log": "resumed"}]})");
  std::string js = to_javascript(load_scenario(file.path()));
  EXPECT_NE(js.find("\"use strict\";"), std::string::npos) << js;
  EXPECT_NE(js.find("const fs = require(\"node:fs\");"), std::string::npos) << js;
  EXPECT_EQ(js.find("node:dns"), std::string::npos) << js;  // only what is used
  EXPECT_NE(js.find("process.nextTick(() => {"), std::string::npos) << js;
  EXPECT_NE(js.find("log(\"tick \\\"quoted\\\"\\nline\");"), std::string::npos) << js;  // escaped as JSON
  EXPECT_NE(js.find("if (++ticks === 3) clearInterval(interval);"), std::string::npos) << js;
  EXPECT_NE(js.find("}, 2.5);"), std::string::npos) << js;
  EXPECT_NE(js.find("await null;"), std::string::npos) << js;
}

TEST(Scenarios, JavaScriptForAnEsModule) {
  ScenarioFile file(R"({"name": "x", "module": "esm", "program": [{"op": "lookup", "log": "looked up"}]})");
  std::string js = to_javascript(load_scenario(file.path()));
  EXPECT_EQ(js.find("use strict"), std::string::npos) << js;
  EXPECT_NE(js.find("import dns from \"node:dns\";"), std::string::npos) << js;
  EXPECT_NE(js.find("dns.lookup(\"localhost\", (error) => {"), std::string::npos) << js;
}

TEST(Scenarios, EveryOpOfTheLanguageIsShipped) {
  std::set<std::string> used;
  std::function<void(const std::vector<Op>&)> collect = [&](const std::vector<Op>& ops) {
    for (const auto& op : ops) {
      used.insert(op_name(op.kind));
      for (const auto* list : {&op.then, &op.next, &op.on, &op.of}) collect(*list);
    }
  };
  for (const auto& file : shipped()) collect(load_scenario(file).program);
  for (const char* op : {"log", "nextTick", "promise", "queueMicrotask", "await", "setTimeout", "setInterval",
                         "setImmediate", "clearTimeout", "clearInterval", "clearImmediate", "readFile", "stat", "open",
                         "close", "writeFile", "socketClose", "promiseAll", "promiseRace", "beforeExit", "reject", "busy"})
    EXPECT_TRUE(used.count(op)) << op << " is in no shipped scenario";
}

TEST(Scenarios, NamesAndClears) {
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "clearTimeout", "name": "t"}]})")
                .find("$.program[0].name: no op is named 't' (named: none)"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setTimeout", "ms": 1, "name": "t"},
                        {"op": "nextTick", "then": [{"op": "setImmediate", "name": "t"}]}]})")
                .find("$.program[1].then[0].name: 't' is already the name of $.program[0]"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setImmediate", "name": "i"},
                        {"op": "clearTimeout", "name": "i"}]})")
                .find("$.program[1].name: 'i' is a setImmediate ($.program[0]): clear it with clearImmediate"), std::string::npos);
}

TEST(Scenarios, WhatARunCostsIsBoundedBeforeItRuns) {
  // Intervals inside intervals multiply: 1000 ticks each starting an interval of 1000 ticks.
  auto nested = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setInterval", "ms": 1, "count": 1000,
                           "then": [{"op": "setInterval", "ms": 1, "count": 1000}]}]})");
  EXPECT_NE(nested.find("$.program[0]: one run would make over 100000 callbacks (1000 × 1001"), std::string::npos) << nested;
  auto slow = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setInterval", "ms": 100, "count": 1000}]})");
  EXPECT_NE(slow.find("$.program: its timers and busy work take at least 100 s per run, over the trace's limit of 30 s"),
            std::string::npos) << slow;
  auto chained = refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "setTimeout", "ms": 10000, "then": [
                            {"op": "setTimeout", "ms": 10000, "then": [{"op": "busy", "ms": 10000}, {"op": "busy", "ms": 1}]}]}]})");
  EXPECT_NE(chained.find("at least 30.001 s per run"), std::string::npos) << chained;
  // An unref'd timer keeps nothing waiting: it does not count.
  ScenarioFile unref(R"({"name": "x", "module": "cjs", "program": [{"op": "setTimeout", "ms": 10000, "unref": true,
                        "then": [{"op": "setInterval", "ms": 10000, "count": 100}]}]})");
  EXPECT_EQ(load_scenario(unref.path()).min_run_ms, 0);
}

TEST(Scenarios, OpsInTheirPlace) {
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "close"}]})")
                .find("$.program[0].op: a close must be inside an open's `then`"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "open", "then": [{"op": "close"}, {"op": "close"}]}]})")
                .find("$.program[0].then[1].op: the file opened at $.program[0] is already closed"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "open", "then": [
                        {"op": "setInterval", "ms": 1, "count": 2, "then": [{"op": "close"}]}]}]})")
                .find("would close the file twice"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "await", "toplevel": true}]})")
                .find("$.program[0].toplevel: a top-level await needs \"module\": \"esm\""), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "esm", "program": [{"op": "await", "toplevel": true}, {"op": "log", "text": "a"}]})")
                .find("must be the program's last op"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "promiseAll", "of": [{"op": "busy", "ms": 1}]}]})")
                .find("$.program[0].of[0].op: 'busy' has no promise to wait for"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "promiseRace", "of": []}]})")
                .find("$.program[0].of: must list at least one op"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "stat", "path": "case.json", "error": "ENOENT"}]})")
                .find("exists, but the op expects ENOENT"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "writeFile", "path": "../escape.txt"}]})")
                .find("$.program[0].path: must be a file name in the run's temporary folder"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "promise", "returns": "thenable"}]})")
                .find("$.program[0].returns: must be \"value\" or \"promise\""), std::string::npos);
  std::string deep = R"({"name": "x", "module": "cjs", "program": )";
  for (int i = 0; i < 34; ++i) deep += R"([{"op": "nextTick", "then": )";
  deep += "[]";
  for (int i = 0; i < 34; ++i) deep += "}]";
  deep += "}";
  EXPECT_NE(refusal(deep).find("ops nested deeper than 32 levels"), std::string::npos);
  EXPECT_NE(refusal(R"({"name": "x", "module": "cjs", "program": [{"op": "log", "text": "a"}], "expectByLine": {"19": [["a"]]}})")
                .find("$.expectByLine.19: '19' is not a modelled Node line (valid: " + modelled_lines_text() + ")"),
            std::string::npos);
}

TEST(Scenarios, BytesThatAreNotUtf8) {
  auto message = refusal("{\"name\": \"\xff\xfe\", \"module\": \"cjs\", \"program\": []}");
  EXPECT_NE(message.find("not valid JSON (UTF-8)"), std::string::npos) << message;
  EXPECT_EQ(message.find('\xff'), std::string::npos) << "the bad bytes are not echoed";
}

TEST(Scenarios, JavaScriptForTheNewOps) {
  ScenarioFile file(R"({"name": "x", "module": "esm", "program": [
    {"op": "setTimeout", "ms": 5, "name": "t", "unref": true, "log": "t"},
    {"op": "clearTimeout", "name": "t"},
    {"op": "promise", "log": "a1", "returns": "promise", "next": {"log": "a2"}},
    {"op": "promiseAll", "log": "all", "of": [{"op": "setImmediate", "log": "i"}, {"op": "promise", "log": "p"}]},
    {"op": "open", "then": [{"op": "close", "log": "closed"}]},
    {"op": "writeFile", "path": "out.txt", "bytes": 3},
    {"op": "socketClose", "log": "close"},
    {"op": "beforeExit", "count": 2, "log": "beforeExit"},
    {"op": "reject", "log": "rejected"},
    {"op": "await", "toplevel": true, "on": {"op": "stat", "log": "stat"}, "log": "resumed"}]})");
  std::string js = to_javascript(load_scenario(file.path()));
  for (const char* expected : {
           "named[\"t\"] = setTimeout(() => {", "}, 5).unref();", "clearTimeout(named[\"t\"]);",
           "return Promise.resolve();", "}).then(() => {", "Promise.all([", "new Promise((resolve) => {", "resolve();",
           "fs.open(", ", \"r\", (error, fd) => {", "fs.close(fd, (error) => {", "settled(error, \"\");",
           "fs.writeFile(nodePath.join(tmp, \"out.txt\"), \"x\".repeat(3), (error) => {",
           "const socket = net.connect({ host: \"127.0.0.1\", port: 9 });", "socket.destroy();",
           "if (++calls === 2) process.off(\"beforeExit\", listener);", "rejectUnhandled(() => {",
           "process.on(\"unhandledRejection\", (reason) => reason.listener());", "import net from \"node:net\";"})
    EXPECT_NE(js.find(expected), std::string::npos) << expected << "\n" << js;
  EXPECT_EQ(js.find("(async () => {"), std::string::npos) << "a top-level await is the module's own\n" << js;
  EXPECT_NE(js.find("\nawait new Promise((resolve) => {"), std::string::npos) << js;
}

// Whether Node's start-up tail can change the order is read from the program, never from what it
// declares: something the main module (or a tick or microtask it queues) leaves pending on a timer
// or the pool when the loop starts.
TEST(Scenarios, WhereTheStartupTailCanChangeTheOrder) {
  auto races = [](const std::string& module, const std::string& program, int line) {
    ScenarioFile file(R"({"name": "x", "module": ")" + module + R"(", "program": )" + program + "}");
    return starts_before_loop(load_scenario(file.path()), node_line_model(line));
  };
  const std::string timer = R"({"op": "setTimeout", "ms": 0, "log": "t"})";
  for (int line : modelled_lines()) {
    EXPECT_TRUE(races("cjs", "[" + timer + R"(, {"op": "setImmediate", "log": "i"}])", line));
    EXPECT_TRUE(races("cjs", R"([{"op": "nextTick", "then": [{"op": "promise", "then": [)" + timer + "]}]}]", line));
    EXPECT_TRUE(races("cjs", R"([{"op": "readFile", "log": "r"}])", line));
    EXPECT_TRUE(races("cjs", R"([{"op": "promiseRace", "of": [{"op": "nextTick"}, {"op": "setImmediate"}], "then": [)" + timer + "]}]", line));
    EXPECT_FALSE(races("cjs", R"([{"op": "setImmediate", "then": [)" + timer + "]}]", line));
    EXPECT_FALSE(races("cjs", R"([{"op": "await", "on": {"op": "setImmediate"}, "then": [)" + timer + "]}]", line));
    EXPECT_FALSE(races("cjs", R"([{"op": "promiseAll", "of": [{"op": "nextTick"}, {"op": "socketClose"}], "then": [)" + timer + "]}]", line));
    EXPECT_FALSE(races("cjs", R"([{"op": "log", "text": "a"}, {"op": "setImmediate", "log": "i"}])", line));
    // An ES module entry read on the pool runs its body inside the loop (18, 20).
    bool in_loop = node_line_model(line).esm_entry == EsmEntry::read_on_pool;
    EXPECT_EQ(races("esm", "[" + timer + "]", line), !in_loop) << "Node " << line;
  }
}
