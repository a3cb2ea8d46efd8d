// Family `regex`: catastrophic backtracking (ReDoS) against linear-time engines (seed 000's
// coupon-code pattern and a catalogue of classic shapes), and throughput on ordinary text.
//
// `match`: one engine, one catalogue pattern (or its safe rewrite, NAME.safe), one attack input of
// `length` characters. The cell's whole life (compile, warm-up, timed matches) fits in a budget
// (input `budget_ms`, default 1000 ms); the orchestrator kills a cell that overruns it, because a
// backtracking match cannot be interrupted any other way. Which catalogue is read: input
// `patterns`, else workloads/regex/patterns.toml. `scripts/stallbench regex`
// escalates lengths per engine and pattern until a cell fails; `run` measures the fixed grid. The
// V8 engines run once per Node line the orchestrator chose: engine=node;node_line=26 uses that line's binary.
//
// `throughput`: lines of a generated text corpus searched one by one (grep -c); every engine's
// count is checked against a plain string scan.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "../workloads/regex/catalogue.h"
#include "../workloads/regex/corpus.h"
#include "../workloads/regex/engine.h"
#include "../workloads/regex/engines.h"
#include "../workloads/regex/measure.h"
#include "harness/harness.h"

using namespace stallbench::bench;
namespace rx = stallbench::regex;

namespace {

constexpr double kThroughputBudgetMs = 3000;
constexpr double kWatchdogGrace = 1.05;  // the orchestrator's kill comes this much after the budget

// The engine's refusal (`rejected`) or guard (`guarded`) becomes the cell's status, its message the detail.
template <class Work>
auto engine_status(Work&& work) {
  try {
    return work();
  } catch (const rx::EngineFailure& e) {
    throw CellFailure(e.status, e.what());
  }
}

// The cell's engine and the options it runs with: a V8 engine runs in the binary of the cell's
// node_line (engine=node;node_line=26 runs in Node 26).
std::pair<std::string, rx::Options> engine_options(const Cell& cell, rx::Flags flags = {}) {
  const std::string& engine = cell.text("engine");
  rx::Options options{.flags = flags, .node = rx::runs_in_node(engine) ? node_binary(cell) : ""};
  return {engine, options};
}

std::unique_ptr<rx::Regex> compile_timed(const Cell& cell, const std::string& regex, rx::Flags flags, double* ms) {
  auto [engine, options] = engine_options(cell, flags);
  auto started = rx::Clock::now();
  auto compiled = engine_status([&] { return rx::compile(engine, regex, options); });
  *ms = std::chrono::duration<double, std::milli>(rx::Clock::now() - started).count();
  return compiled;
}

// A cell's engine runs in a program of its own (a JVM, a node, Python): started before the cell
// starts, since a language's runtime start is not its engine's work and would take most of a
// 1,000 ms budget on a busy machine (Java 0.8 s, Ruby 0.7 s, Node 0.6 s measured here).
void start_runtime(const Cell& cell) {
  auto [engine, options] = engine_options(cell);
  engine_status([&] { rx::start_runtime(engine, options); });
}

// Repetition 0's budget starts when its cell starts (compiling is part of it); later ones at their own start.
struct BudgetClock {
  rx::Clock::time_point cell_started = rx::Clock::now();
  bool first = true;
  rx::Clock::time_point start() {
    auto at = first ? cell_started : rx::Clock::now();
    first = false;
    return at;
  }
};

// Engines that can run a pattern with another algorithm than their own (node-linear: V8's linear
// engine, or plain backtracking where that engine cannot take the pattern) say which they used.
bool can_fall_back(const std::string& engine) {
  for (const auto& info : rx::all_engines())
    if (info.name == engine) return info.kind == "hybrid";
  return false;
}

Repetition make_match(const rx::Catalogue& catalogue, double budget_ms, const Cell& cell) {
  BudgetClock clock;
  rx::Variant variant = catalogue.variant(cell.text("pattern"));
  const rx::Pattern& recipe = *variant.pattern;
  auto input = std::make_shared<std::string>(rx::attack_input(recipe, cell.integer("length")));
  // The same recipe with one repetition of each pump: short enough to be cheap however the engine grows.
  auto one_round = static_cast<std::int64_t>(recipe.prefix.size() + recipe.suffix.size());
  for (const auto& p : recipe.pumps) one_round += static_cast<std::int64_t>(p.before.size() + p.pump.size());
  auto short_input = std::make_shared<std::string>(rx::attack_input(recipe, one_round));
  double compile_ms = 0;
  std::shared_ptr<rx::Regex> regex = compile_timed(cell, variant.regex, recipe.flags, &compile_ms);
  rx::TimingPlan plan{.budget_ms = budget_ms};
  bool hybrid = can_fall_back(cell.text("engine"));
  return [=](Counters& out) mutable {
    auto timing = engine_status([&] { return rx::time_match(*regex, *input, *short_input, clock.start(), plan); });
    out.set("match_ms", timing.median_ms);
    out.set("matched", timing.matched ? 1 : 0);
    out.set("samples", timing.samples);
    out.set("compile_ms", compile_ms);
    if (hybrid) out.set("fell_back", regex->fallback().empty() ? 0 : 1);
    return timing.median_ms;
  };
}

Repetition make_throughput(const Cell& cell) {
  BudgetClock clock;
  const std::string& name = cell.text("pattern");
  const rx::ThroughputPattern* pattern = nullptr;
  for (const auto& p : rx::throughput_patterns())
    if (p.name == name) pattern = &p;
  if (pattern == nullptr) throw std::invalid_argument("no throughput pattern '" + name + "'");
  auto corpus = std::make_shared<rx::Corpus>(rx::make_corpus(static_cast<std::size_t>(cell.integer("length"))));
  std::size_t expected = rx::reference_matching_lines(name, corpus->lines);
  double compile_ms = 0;
  std::shared_ptr<rx::Regex> regex = compile_timed(cell, pattern->regex, {}, &compile_ms);
  rx::TimingPlan plan{.budget_ms = kThroughputBudgetMs, .max_samples = 5};
  return [=](Counters& out) mutable {
    std::size_t found = 0;
    auto timing = engine_status([&] { return rx::time_lines(*regex, corpus->lines, clock.start(), plan, &found); });
    if (found != expected)
      throw std::runtime_error("matched " + std::to_string(found) + " lines, the reference scan " +
                               std::to_string(expected));
    out.set("throughput_mb_s", static_cast<double>(corpus->text.size()) / 1e6 / (timing.median_ms / 1e3));
    out.set("matching_lines", static_cast<double>(found));
    out.set("samples", timing.samples);
    return timing.median_ms;
  };
}

Param engine_param() {
  auto names = rx::engine_names();
  std::vector<std::string> smoke;
  std::vector<std::string> per_line;
  for (const auto& info : rx::all_engines()) {
    if (info.available && info.smoke) smoke.push_back(info.name);
    if (info.available && info.per_node_line) per_line.push_back(info.name);
  }
  return {.name = "engine", .values = names, .smoke = smoke, .choices = names,
          .doc = "regex engine (the family's `engines` table says what each is); node and node-linear run once per "
                 "Node line chosen (its node_line: 26)",
          .node_values = per_line};
}

// The engine table, for the orchestrator and the report (the describe contract's `tables`).
Table engines_table() {
  Table table{.name = "engines", .doc = "every regex engine stallbench knows, in the bench's order"};
  for (const auto& e : rx::all_engines())
    table.rows.push_back({{"name", e.name}, {"implementation", e.implementation}, {"language", e.language}, {"runs_in", e.runs_in},
                          {"library", e.library}, {"version_source", e.version_source}, {"kind", e.kind},
                          {"semantics", e.semantics}, {"flags", e.flags}, {"refuses", e.refuses}, {"guard", e.guard},
                          {"package", e.package}, {"per_node_line", e.per_node_line}, {"available", e.available},
                          {"doc", e.doc}});
  return table;
}

Metric samples_metric() {
  return {.name = "samples", .unit = "count", .tracked = false,
          .doc = "timed batches (match) or passes (throughput) after the warm-up; 0: the warm-up was the only one"};
}

// The variants `run --profile full` can measure: those with an attack written in the catalogue
// (`stallbench regex` finds the others' attacks first).
std::vector<std::string> variants_with_an_attack(const rx::Catalogue& catalogue) {
  std::vector<std::string> names;
  for (const auto& p : catalogue.patterns()) {
    if (p.pumps.empty()) continue;
    names.push_back(p.name);
    if (p.safe) names.push_back(p.name + ".safe");
  }
  return names;
}

Benchmark match(const rx::Catalogue& catalogue, double budget) {
  auto variants = catalogue.variant_names();
  const auto& first = catalogue.patterns().front();
  std::vector<std::string> defaults{first.name};
  if (first.safe) defaults.push_back(first.name + ".safe");
  return {
      .name = "match",
      .doc = "one engine, one catalogue pattern (NAME or NAME.safe), one attack input of `length` characters: "
             "median time of a match after a warm-up, within the cell's budget",
      .params = {engine_param(),
                 {.name = "pattern", .values = defaults, .smoke = {first.name}, .full = variants_with_an_attack(catalogue),
                  .choices = variants,
                  .doc = "catalogue entry; NAME.safe is its safe rewrite"},
                 {.name = "length", .values = {"20", "24", "28"}, .smoke = {"20"},
                  .full = {"16", "20", "24", "28", "32"}, .range = {{1, 50'000'000}},
                  .doc = "attack input length in bytes: prefix + k whole rounds of the pumps + suffix"}},
      .metrics = {{.name = "match_ms", .unit = "ms", .doc = "median time of one match"},
                  {.name = "matched", .unit = "count", .tracked = false, .doc = "1 when the pattern matched"},
                  samples_metric(),
                  {.name = "compile_ms", .unit = "ms", .tracked = false, .doc = "compiling the pattern"},
                  {.name = "fell_back", .unit = "count", .tracked = false,
                   .doc = "engines of kind hybrid only (node-linear): 1 when the engine ran the pattern with another "
                          "algorithm than its own (V8's linear engine cannot take it: plain backtracking)"}},
      .timeout_s = budget / 1e3 * kWatchdogGrace,
      .make = [&catalogue, budget](const Cell& cell) { return make_match(catalogue, budget, cell); },
      .prepare = start_runtime,
      // An engine's guard, rejection, stack overflow or a match past the budget is the finding.
      .outcomes = {"guarded", "rejected", "crashed", "timeout"},
      .shares_process = true,  // an engine's runtime (Java, Python, Node) starts once for its cells
      .constants = {{.name = "budget_ms", .value = budget,
                     .doc = "each cell's budget: compile, warm-up and timed matches, after the engine's runtime has "
                            "started (the report draws it)"}},
  };
}

Benchmark throughput() {
  std::vector<std::string> names;
  for (const auto& p : rx::throughput_patterns()) names.push_back(p.name);
  return {
      .name = "throughput",
      .doc = "every line of a generated text corpus searched, as grep -c: MB/s per engine",
      .params = {engine_param(),
                 {.name = "pattern", .values = names, .smoke = {"literal"}, .choices = names,
                  .doc = "literal, alternation of words, or \\w+\\s+Holmes\\s+\\w+"},
                 {.name = "length", .values = {"2000000"}, .smoke = {"200000"}, .range = {{1000, 200'000'000}},
                  .doc = "corpus size in bytes"}},
      .metrics = {{.name = "throughput_mb_s", .unit = "MB/s", .better = Better::higher,
                   .doc = "corpus bytes / median time of one pass"},
                  {.name = "matching_lines", .unit = "count", .tracked = false, .doc = "lines that matched"},
                  samples_metric()},
      .timeout_s = kThroughputBudgetMs / 1e3 * kWatchdogGrace,
      .make = make_throughput,
      .prepare = start_runtime,
      .shares_process = true,
  };
}

}  // namespace

int main(int argc, char** argv) {
  static rx::Catalogue catalogue;
  return run_main(argc, argv,
                  FamilyFromInputs{
                      .name = "regex",
                      .inputs = {{.name = "patterns",
                                  .doc = "the pattern catalogue (TOML) the match benchmark reads",
                                  .fallback = rx::Catalogue::default_path()},
                                 {.name = "budget_ms",
                                  .doc = "each match cell's whole life, in ms; the orchestrator kills it after",
                                  .fallback = "1000"}},
                      .make = [](const Inputs& inputs) -> Family {
                        catalogue = rx::Catalogue::load(inputs.text("patterns"));
                        return {.name = "regex",
                                .doc = "catastrophic backtracking (ReDoS) against linear-time engines, and "
                                       "throughput on text",
                                .benchmarks = {match(catalogue, inputs.positive_number("budget_ms")), throughput()},
                                .tables = {engines_table()},
                                .versions = rx::engine_versions(),
                                .os_packages = {"regex"}};
                      }});
}
