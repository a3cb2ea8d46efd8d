// The harness's grid rules: validation, expansion, names, per-process parameters, counters, inputs
// and the repetition records.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "benches/harness/grid.h"
#include "benches/harness/node_lines.h"
#include "benches/harness/protocol.h"
#include "benches/harness/records.h"
#include "benches/harness/runtime_param.h"

using namespace stallbench::bench;

static Benchmark example() {
  return {.name = "demo",
          .params = {{.name = "n", .values = {"1", "2"}, .range = {{1, 10}}},
                     {.name = "mode", .values = {"a", "b"}, .choices = {"a", "b", "c"}},
                     {.name = "pool", .values = {"4"}, .range = {{1, 1024}}, .per_process = true,
                      .env = "STALLBENCH_TEST_POOL"}},
          .metrics = {{.name = "x_ms", .unit = "ms"}},
          .make = [](const Cell&) -> Repetition { return [](Counters&) { return 0.0; }; }};
}

// What the orchestrator measures itself (doctor's program): declared, with no cells.
static Benchmark measured_by_a_command() {
  Benchmark b = example();
  b.make = nullptr;
  b.measured_by = "doctor";
  return b;
}

TEST(CheckValue, RangesAndChoices) {
  auto b = example();
  EXPECT_EQ(check_value(b.params[0], "10"), "");
  EXPECT_NE(check_value(b.params[0], "0"), "");
  EXPECT_NE(check_value(b.params[0], "11"), "");
  EXPECT_NE(check_value(b.params[0], "-1"), "");
  EXPECT_NE(check_value(b.params[0], "abc"), "");
  EXPECT_NE(check_value(b.params[0], "2x"), "");
  EXPECT_NE(check_value(b.params[0], ""), "");
  EXPECT_EQ(check_value(b.params[1], "c"), "");
  EXPECT_NE(check_value(b.params[1], "d").find("valid values are a, b, c"), std::string::npos);
  EXPECT_NE(check_value(b.params[2], "2000").find("1-1024"), std::string::npos);
}

TEST(ExpandGrid, ProductOfInProcessParamsWithThisProcesssValue) {
  auto cells = expand_grid(example(), {}, {{"pool", "8"}});
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].at("n"), "1");
  EXPECT_EQ(cells[0].at("mode"), "a");
  EXPECT_EQ(cells[3].at("n"), "2");
  EXPECT_EQ(cells[3].at("mode"), "b");
  for (const auto& cell : cells) EXPECT_EQ(cell.at("pool"), "8");  // per process: every cell holds it
  EXPECT_THROW(expand_grid(example(), {}, {}), std::logic_error);
}

TEST(ExpandGrid, OverridesQualifiedFirstAndValidated) {
  auto cells = expand_grid(example(), {{"n", {"3"}}, {"demo.n", {"5", "6"}}, {"mode", {"c"}}}, {{"pool", "4"}});
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].at("n"), "6");
  EXPECT_THROW(expand_grid(example(), {{"n", {"0"}}}, {{"pool", "4"}}), std::invalid_argument);
}

TEST(CellName, ReadsLikeArgNamesPerProcessParametersIncluded) {
  Cell cell({{"n", "2"}, {"mode", "a"}, {"pool", "4"}});
  EXPECT_EQ(cell_name(example(), cell), "demo/n:2/mode:a/pool:4");
  EXPECT_EQ(cell.integer("n"), 2);
  EXPECT_EQ(cell.integer("pool"), 4);
  EXPECT_THROW(cell.text("missing"), std::logic_error);
}

TEST(PerProcess, ExportsOneValidValue) {
  Family family{.name = "f", .benchmarks = {example()}};
  unsetenv("STALLBENCH_TEST_POOL");
  auto applied = apply_per_process(family, {});
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied.at("pool"), "4");
  EXPECT_STREQ(std::getenv("STALLBENCH_TEST_POOL"), "4");
  EXPECT_EQ(apply_per_process(family, {{"pool", {"8"}}}).at("pool"), "8");
  EXPECT_THROW(apply_per_process(family, {{"pool", {"1", "2"}}}), std::invalid_argument);
  EXPECT_THROW(apply_per_process(family, {{"pool", {"0"}}}), std::invalid_argument);
  setenv("STALLBENCH_TEST_POOL", "abc", 1);
  EXPECT_THROW(apply_per_process(family, {}), std::invalid_argument);
}

TEST(PerProcess, AQualifiedOverrideOfAnyBenchmarkWins) {
  // Two benchmarks share the per-process `pool`; the orchestrator names the one it runs.
  Benchmark second = example();
  second.name = "second";
  Family family{.name = "f", .benchmarks = {example(), second}};
  unsetenv("STALLBENCH_TEST_POOL");
  auto applied = apply_per_process(family, {{"second.pool", {"8"}}});
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied.at("pool"), "8");
  EXPECT_STREQ(std::getenv("STALLBENCH_TEST_POOL"), "8");
  EXPECT_THROW(apply_per_process(family, {{"demo.pool", {"2"}}, {"second.pool", {"8"}}}), std::invalid_argument);
}

TEST(PerProcess, WithoutAnEnvironmentVariableTakesTheOverrideOrTheFirstDefault) {
  Benchmark b = example();
  b.params[2].env.clear();
  Family family{.name = "f", .benchmarks = {b}};
  setenv("STALLBENCH_TEST_POOL", "8", 1);  // not this parameter's: ignored
  EXPECT_EQ(apply_per_process(family, {}).at("pool"), "4");
  EXPECT_EQ(apply_per_process(family, {{"demo.pool", {"2"}}}).at("pool"), "2");
  unsetenv("STALLBENCH_TEST_POOL");
}

TEST(Declarations, AnEnvironmentVariableNeedsAPerProcessParameter) {
  Benchmark b = example();
  EXPECT_EQ(declaration_problem(Family{.name = "f", .benchmarks = {b}}), "");
  b.params[2].per_process = false;
  EXPECT_NE(declaration_problem(Family{.name = "f", .benchmarks = {b}}).find("not per_process"), std::string::npos);
}

TEST(Declarations, ABenchmarkIsMeasuredByItsCellsOrByACommandNeverBothNorNeither) {
  EXPECT_EQ(declaration_problem(Family{.name = "f", .benchmarks = {measured_by_a_command()}}), "");
  Benchmark both = measured_by_a_command();
  both.make = example().make;
  EXPECT_NE(declaration_problem(Family{.name = "f", .benchmarks = {both}}).find("has both make and measured_by"),
            std::string::npos);
  Benchmark neither = example();
  neither.make = nullptr;
  EXPECT_NE(declaration_problem(Family{.name = "f", .benchmarks = {neither}}).find("neither make nor measured_by"),
            std::string::npos);
}

TEST(Declarations, ABenchmarkACommandMeasuresHasNoCellsButIsDescribed) {
  Benchmark b = measured_by_a_command();
  EXPECT_TRUE(runnable_cells(b, {}, {{"pool", "4"}}).empty());
  EXPECT_THROW(runnable_cells(b, {{"demo.n", {"99"}}}, {{"pool", "4"}}), std::invalid_argument);  // values still checked
  auto described = nlohmann::json::parse(describe(Family{.name = "f", .doc = "d", .benchmarks = {b, example()}}));
  EXPECT_EQ(described["benchmarks"][0]["measured_by"], "doctor");
  EXPECT_EQ(described["benchmarks"][0]["metrics"][0]["name"], "x_ms");
  EXPECT_EQ(described["benchmarks"][1]["measured_by"], "");
}

TEST(Counters, OnlyDeclaredFiniteMetricsInMetricSubcaseIndexOrder) {
  auto b = example();
  Counters counters(b.metrics);
  counters.series("x_ms", {1, 2});
  counters.set("x_ms", {{"class", "read"}}, 3);
  counters.set("x_ms", 1.5);
  auto values = counters.values();
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[0].value, 1.5);  // the single value, then the series in order, then the sub-case
  EXPECT_FALSE(values[0].index.has_value());
  EXPECT_EQ(values[1].index, 0u);
  EXPECT_EQ(values[2].index, 1u);
  EXPECT_EQ(values[2].value, 2);
  EXPECT_EQ(values[3].subcase, (Subcase{{"class", "read"}}));
  EXPECT_THROW(counters.set("y_ms", 1), std::logic_error);
  EXPECT_THROW(counters.set("x_ms", {{"class", "a=b"}}, 1), std::logic_error);
  EXPECT_THROW(counters.set("y_ms", {{"class", "read"}}, 1), std::logic_error);
  EXPECT_THROW(counters.set("x_ms", std::nan("")), std::logic_error);
}

TEST(Records, OneVersionedJsonObjectPerLine) {
  auto start = nlohmann::json::parse(start_record(2));
  EXPECT_EQ(start, (nlohmann::json{{"protocol", kProtocolVersion}, {"event", "start"}, {"rep", 2}}));
  std::vector<Value> values{{.metric = "x_ms", .index = 3, .subcase = {{"class", "read"}}, .value = 1.5},
                            {.metric = "x_ms", .value = 2}};
  auto end = nlohmann::json::parse(end_record(2, 7.25, values));
  EXPECT_EQ(end["status"], "ok");
  EXPECT_EQ(end["detail"], "");
  EXPECT_EQ(end["wall_ms"], 7.25);
  EXPECT_EQ(end["callgrind_dump"], callgrind_dump_label(2));
  EXPECT_EQ(end["values"][0], (nlohmann::json{{"metric", "x_ms"}, {"index", 3}, {"subcase", {{"class", "read"}}},
                                               {"value", 1.5}}));
  EXPECT_TRUE(end["values"][1]["index"].is_null());
  EXPECT_TRUE(end["values"][1]["subcase"].empty());
  auto failed = nlohmann::json::parse(failed_record(0, "rejected", "bad \xff byte"));
  EXPECT_EQ(failed["status"], "rejected");
  EXPECT_TRUE(failed["wall_ms"].is_null());
  EXPECT_TRUE(failed["values"].empty());
  EXPECT_EQ(end_record(0, 1, {}).find('\n'), std::string::npos);
}

TEST(Inputs, GivenElseFallbackAndOnlyDeclared) {
  Inputs inputs({{.name = "budget_ms", .fallback = "1000"}, {.name = "file"}}, {{"file", "/tmp/x"}});
  EXPECT_EQ(inputs.text("file"), "/tmp/x");
  EXPECT_EQ(inputs.text("budget_ms"), "1000");
  EXPECT_EQ(inputs.positive_number("budget_ms"), 1000);
  EXPECT_THROW(inputs.positive_number("file"), std::invalid_argument);
  EXPECT_THROW(inputs.text("other"), std::logic_error);
  Inputs zero({{.name = "budget_ms"}}, {{"budget_ms", "0"}});
  EXPECT_THROW(zero.positive_number("budget_ms"), std::invalid_argument);
}

TEST(CheckValue, CustomCheckRunsAfterTheSeparatorRule) {
  Param p{.name = "mix", .values = {"even"},
          .check = [](const std::string& v) { return v.size() % 2 == 0 ? "" : "mix " + v + " has odd length"; }};
  EXPECT_EQ(check_value(p, "ab"), "");
  EXPECT_EQ(check_value(p, "abc"), "mix abc has odd length");
  EXPECT_NE(check_value(p, "a,b,"), "");
}

TEST(Describe, ListsGridsAndMetrics) {
  Family family{.name = "f", .doc = "d", .benchmarks = {example()}};
  auto text = describe(family, {{.name = "file", .doc = "a file", .fallback = "x.toml"}});
  EXPECT_NE(text.find("\"per_process\": true"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(text)["inputs"][0]["fallback"], "x.toml");
  EXPECT_NE(text.find("\"x_ms\""), std::string::npos);
  EXPECT_NE(text.find("google-benchmark"), std::string::npos);
}

TEST(NodeValues, OneCellPerChosenLineTheLineItsOwnParameter) {
  Benchmark b{.name = "peer",
              .params = {runtime_param({.values = {"stallbench", "node"}}, "where it runs")},
              .metrics = {{.name = "x_ms", .unit = "ms"}}};
  set_node_lines({});
  auto none = expand_grid(b, {}, {});
  ASSERT_EQ(none.size(), 1u);  // no Node chosen: no Node cells
  set_node_lines({{"24", "/opt/node24"}, {"system", "/usr/bin/node"}});
  auto cells = expand_grid(b, {}, {});
  ASSERT_EQ(cells.size(), 3u);
  const std::string line(kNodeLineParam);
  EXPECT_EQ(cells[0], (std::map<std::string, std::string>{{"runtime", "stallbench"}}));  // no Node: no line
  EXPECT_EQ(cells[1], (std::map<std::string, std::string>{{"runtime", "node"}, {line, "24"}}));
  EXPECT_EQ(cells[2], (std::map<std::string, std::string>{{"runtime", "node"}, {line, "system"}}));
  EXPECT_EQ(node_binary(Cell(cells[2])), "/usr/bin/node");
  EXPECT_THROW(node_binary(Cell(cells[0])), std::invalid_argument);
  // A line given: that line's cell alone, whether as the parameter or as VALUE@LINE in one word.
  auto only_24 = expand_grid(b, {{line, {"24"}}, {"runtime", {"node"}}}, {});
  ASSERT_EQ(only_24.size(), 1u);
  EXPECT_EQ(only_24[0].at(line), "24");
  EXPECT_EQ(expand_grid(b, {{"runtime", {"node@system"}}}, {}), (std::vector<std::map<std::string, std::string>>{
                                                                      {{"runtime", "node"}, {line, "system"}}}));
  EXPECT_THROW(expand_grid(b, {{line, {"26"}}}, {}), std::invalid_argument);
  // One reading of the one-word spelling for everyone (the harness, regex_check): the last mark splits.
  EXPECT_EQ(split_node_value("node-linear@26"), (std::pair<std::string, std::string>{"node-linear", "26"}));
  EXPECT_EQ(split_node_value("a@b@26"), (std::pair<std::string, std::string>{"a@b", "26"}));
  EXPECT_EQ(split_node_value("re2"), (std::pair<std::string, std::string>{"re2", ""}));
  EXPECT_EQ(check_value(b.params[0], "node@24"), "");
  EXPECT_NE(check_value(b.params[0], "node@26").find("was not chosen (chosen: 24, system"), std::string::npos);
  EXPECT_NE(check_value(b.params[0], "stallbench@24"), "");
  EXPECT_FALSE(runs_in_node(Cell(cells[0])));
  EXPECT_TRUE(runs_in_node(Cell(cells[2])));
  EXPECT_EQ(runtime_node_binary(Cell(cells[2])), "/usr/bin/node");
  // The harness declares the line's parameter right after the runtime, and names it in cells and names.
  Family family{.name = "f", .doc = "d", .benchmarks = {b}};
  add_node_line_params(family);
  const Benchmark& declared = family.benchmarks[0];
  ASSERT_EQ(declared.params.size(), 2u);
  EXPECT_EQ(declared.params[1].name, line);
  EXPECT_EQ(check_value(declared.params[1], "system"), "");
  EXPECT_NE(check_value(declared.params[1], "26").find("was not chosen"), std::string::npos);
  EXPECT_EQ(cell_name(declared, Cell(cells[1])), "peer/runtime:node/node_line:24");
  EXPECT_EQ(cell_name(declared, Cell(cells[0])), "peer/runtime:stallbench");
  auto listed = nlohmann::json::parse(describe_cells(declared, runnable_cells(declared, {}, {})));
  EXPECT_EQ(listed["cells"][0], (nlohmann::json{{"runtime", "stallbench"}}));
  EXPECT_EQ(listed["cells"][2], (nlohmann::json{{"runtime", "node"}, {line, "system"}}));
  set_node_lines({});
}

// A cell runs in one Node line at most, so a benchmark has one parameter naming Node, and the line's
// parameter is the harness's to add.
TEST(NodeValues, OneParameterNamesNodeAndTheHarnessAddsTheLine) {
  Benchmark two{.name = "two",
                .params = {runtime_param({.values = {"node"}}, "d"), {.name = "engine", .values = {"node"}, .node_values = {"node"}}},
                .metrics = {{.name = "x_ms", .unit = "ms"}},
                .make = [](const Cell&) -> Repetition { return {}; }};
  Family family{.name = "f", .doc = "d", .benchmarks = {two}};
  EXPECT_NE(declaration_problem(family).find("2 parameters with node_values"), std::string::npos);
  family.benchmarks[0].params = {{.name = std::string(kNodeLineParam), .values = {"26"}}};
  EXPECT_NE(declaration_problem(family).find("the harness adds it"), std::string::npos);
}

// A family's `runtime` accepts the runtimes its profiles run, so one that only runs Node refuses
// `stallbench` before anything runs; each profile keeps its own grid.
TEST(NodeValues, RuntimeChoicesAreTheRuntimesItsGridsName) {
  Param both = runtime_param({.values = {"stallbench"}, .full = {"stallbench", "node"}}, "d");
  EXPECT_EQ(both.choices, (std::vector<std::string>{"stallbench", "node"}));
  EXPECT_EQ(both.values, (std::vector<std::string>{"stallbench"}));
  EXPECT_EQ(both.full, (std::vector<std::string>{"stallbench", "node"}));
  EXPECT_TRUE(both.smoke.empty() && both.nightly.empty());
  Param node_only = runtime_param({.values = {"node"}, .smoke = {"node"}}, "d");
  EXPECT_EQ(node_only.choices, (std::vector<std::string>{"node"}));
  EXPECT_EQ(node_only.node_values, (std::vector<std::string>{"node"}));
  EXPECT_NE(check_value(node_only, "stallbench").find("valid values are node"), std::string::npos);
}

TEST(Describe, SaysWhatABenchmarkNeedsFromTheMachine) {
  Benchmark b = example();
  b.missing = [] { return std::string("no Chromium"); };
  b.reserves_address_space = true;
  b.shares_process = true;
  Family family{.name = "f", .doc = "d", .benchmarks = {b, example()}, .npm_sets = {"browser"}};
  auto described = nlohmann::json::parse(describe(family));
  EXPECT_EQ(described["npm_sets"], nlohmann::json::array({"browser"}));
  EXPECT_EQ(described["benchmarks"][0]["missing"], "no Chromium");
  EXPECT_EQ(described["benchmarks"][0]["reserves_address_space"], true);
  EXPECT_EQ(described["benchmarks"][0]["shares_process"], true);
  EXPECT_EQ(described["benchmarks"][1]["missing"], "");
  EXPECT_EQ(described["benchmarks"][1]["shares_process"], false);
}

// The describe and cells documents against contract/protocol.schema.json, the one source both sides
// read: every object has exactly the fields its definition lists (the Python side checks types too,
// on what the real binaries write: tests/python/test_contract.py).
static const nlohmann::json& schema() {
  static const nlohmann::json parsed = nlohmann::json::parse(std::ifstream(STALLBENCH_PROTOCOL_SCHEMA));
  return parsed;
}

static void expect_shape(const nlohmann::json& value, const nlohmann::json& rule, const std::string& where) {
  if (rule.contains("$ref")) {
    std::string ref = rule["$ref"];
    return expect_shape(value, schema()["$defs"][ref.substr(ref.rfind('/') + 1)], where);
  }
  if (rule.contains("const")) {
    EXPECT_EQ(value, rule["const"]) << where;
  }
  if (value.is_object() && rule.contains("properties")) {
    std::set<std::string> declared, given;
    for (const auto& [key, _] : rule["properties"].items()) declared.insert(key);
    for (const auto& [key, item] : value.items()) {
      given.insert(key);
      if (declared.count(key)) expect_shape(item, rule["properties"][key], where + "." + key);
    }
    EXPECT_EQ(given, declared) << where;
  }
  if (value.is_array() && rule.contains("items"))
    for (const auto& item : value) expect_shape(item, rule["items"], where + "[]");
}

TEST(Protocol, DescribeAndCellsHaveTheSchemasFields) {
  Benchmark b = example();
  b.constants = {{.name = "budget_ms", .value = 5}};
  Table table{.name = "engines", .doc = "d", .rows = {{{"name", std::string("re2")}, {"linear", true}}}};
  Family family{.name = "f", .doc = "d", .benchmarks = {b}, .tables = {table}, .versions = {{"libuv", "1.44.2"}}};
  auto described = nlohmann::json::parse(describe(family, {{.name = "file", .doc = "a file", .fallback = "x"}}));
  EXPECT_EQ(schema()["$defs"]["protocol"]["const"], kProtocolVersion);
  expect_shape(described, schema()["$defs"]["describe"], "describe");
  EXPECT_EQ(described["reserved"]["node_line"], std::string(1, kNodeLineMark));
  EXPECT_EQ(described["reserved"]["node_line_param"], kNodeLineParam);
  auto text = describe_cells(b, runnable_cells(b, {}, {{"pool", "8"}}));
  auto cells = nlohmann::json::parse(text);
  expect_shape(cells, schema()["$defs"]["cells"], "cells");
  ASSERT_EQ(cells["cells"].size(), 4u);
  auto in_order = nlohmann::ordered_json::parse(text);
  std::vector<std::string> order;
  for (const auto& [key, _] : in_order["cells"][0].items()) order.push_back(key);
  EXPECT_EQ(order, (std::vector<std::string>{"n", "mode", "pool"}));  // declaration order, not sorted
}

TEST(Protocol, ReservedCharactersAreRefusedInValuesAndWords) {
  auto b = example();
  for (char c : kSeparators) EXPECT_NE(check_value(b.params[1], std::string("a") + c), "") << c;
  EXPECT_EQ(reserved_in("plain", true), std::string::npos);
  EXPECT_NE(reserved_in("a@b", true), std::string::npos);
  EXPECT_EQ(reserved_in("a@b", false), std::string::npos);
  Counters counters(b.metrics);
  EXPECT_THROW(counters.set("x_ms", {{"class", std::string("a") + kNodeLineMark}}, 1), std::logic_error);
}

TEST(Grid, TierFallbacksAreWrittenOnce) {
  Param p{.name = "n", .values = {"1", "2"}};
  EXPECT_EQ(tier_grid(p, Tier::smoke), (std::vector<std::string>{"1"}));
  EXPECT_EQ(tier_grid(p, Tier::nightly), p.values);
  EXPECT_EQ(tier_grid(p, Tier::full), p.values);
  p.smoke = {"2"};
  p.full = {"1", "2", "3"};
  EXPECT_EQ(tier_grid(p, Tier::smoke), p.smoke);
  EXPECT_EQ(tier_grid(p, Tier::full), p.full);
}
