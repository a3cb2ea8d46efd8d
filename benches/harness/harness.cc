#include "harness.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

#include "grid.h"
#include "inject.h"
#include "protocol.h"
#include "records.h"

#ifdef STALLBENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(label) ((void)(label))
#endif

namespace stallbench::bench {

const std::string& Cell::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("cell has no parameter '" + name + "'");
  return it->second;
}

std::int64_t Cell::integer(const std::string& name) const { return std::stoll(text(name)); }

const std::string& Inputs::text(const std::string& name) const {
  auto declared = std::find_if(declared_.begin(), declared_.end(), [&](const Input& i) { return i.name == name; });
  if (declared == declared_.end()) throw std::logic_error("input '" + name + "' is not declared by this family");
  auto given = given_.find(name);
  return given != given_.end() ? given->second : declared->fallback;
}

double Inputs::positive_number(const std::string& name) const {
  const std::string& given = text(name);
  char* end = nullptr;
  double value = std::strtod(given.c_str(), &end);
  if (given.empty() || *end != '\0' || !(value > 0) || !std::isfinite(value))
    throw std::invalid_argument("input " + name + "=" + given + ": expected a positive number");
  return value;
}

void Counters::require_declared(const std::string& metric) const {
  for (const auto& m : declared_)
    if (m.name == metric) return;
  throw std::logic_error("metric '" + metric + "' is not declared by this benchmark");
}

void Counters::put(Key key, double value) {
  require_declared(std::get<0>(key));
  if (!std::isfinite(value)) throw std::logic_error("metric '" + std::get<0>(key) + "' got a non-finite value");
  values_[std::move(key)] = value;
}

void Counters::set(const std::string& metric, double value) { put({metric, {}, std::nullopt}, value); }

void Counters::set(const std::string& metric, const Subcase& subcase, double value) {
  // The sub-case ends up in a row's params, "key=value;key=value": it must read as plain words there.
  for (const auto& [key, text] : subcase)
    if (key.empty() || text.empty() || reserved_in(key + text, true) != std::string::npos)
      throw std::logic_error("sub-case " + key + "=" + text + " of metric '" + metric + "' is not a plain word");
  put({metric, subcase, std::nullopt}, value);
}

void Counters::series(const std::string& metric, const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) put({metric, {}, i}, values[i]);
}

std::vector<Value> Counters::values() const {
  std::vector<Value> out;
  for (const auto& [key, value] : values_) out.push_back({std::get<0>(key), std::get<2>(key), std::get<1>(key), value});
  return out;
}

namespace {

// Google Benchmark's counters, for a person reading its console table or raw JSON: metric,
// metric#i (a series), metric@key=value (a sub-case). Nothing reads these back: the orchestrator
// reads the records.
std::string counter_name(const Value& v) {
  std::string name = v.metric;
  for (const auto& [key, text] : v.subcase) name.append("@").append(key).append("=").append(text);
  if (v.index) name.append("#").append(std::to_string(*v.index));
  return name;
}

// What a step of a cell threw: a CellFailure's status and message, or `error` and the message of
// any other exception.
struct Failure {
  std::string status, detail;
};

template <class Work>
std::optional<Failure> failure_of(Work&& work) {
  try {
    work();
    return std::nullopt;
  } catch (const CellFailure& e) {
    return Failure{e.status, e.what()};
  } catch (const std::exception& e) {
    return Failure{"error", e.what()};
  }
}

// State shared by the repetitions of one cell: the scenario is built once, on first use, so a
// failure to build it is reported like any other failure of the cell.
struct CellRun {
  const Benchmark* benchmark;
  Cell cell;  // what `make` sees: the declared values, or more work under STALLBENCH_INJECT_WORK
  int records_fd;
  Repetition repetition;
  std::optional<Failure> build_failure;  // when prepare() or make() failed: every repetition says why
  int repetitions_started = 0;
};

// What one repetition gave: its time and values, or the failure that ends the cell.
struct Outcome {
  double ms = 0;
  std::vector<Value> values;
  std::optional<Failure> failure;
};

// Runs the cell's next repetition (its prepare and make first, for the first), writing its start
// and end records: a Google Benchmark iteration's work, and --stallbench-serve's per repetition.
Outcome run_next_repetition(CellRun& run) {
  int index = run.repetitions_started++;
  if (index == 0 && run.benchmark->prepare) run.build_failure = failure_of([&] { run.benchmark->prepare(run.cell); });
  write_record(run.records_fd, start_record(index));
  Outcome outcome{.failure = run.build_failure};
  if (!outcome.failure) {
    outcome.failure = failure_of([&] {
      if (!run.repetition) run.repetition = run.benchmark->make(run.cell);
      Counters counters(run.benchmark->metrics);
      // No-ops unless run under callgrind (`run --instructions`), where they make each dump hold
      // exactly one repetition's instructions, all threads included; the label names it.
      CALLGRIND_ZERO_STATS;
      outcome.ms = run.repetition(counters);
      std::string dump_label = callgrind_dump_label(index);  // named: the macro keeps the pointer past one expression
      CALLGRIND_DUMP_STATS_AT(dump_label.c_str());
      outcome.values = counters.values();
      write_record(run.records_fd, end_record(index, outcome.ms, outcome.values));
    });
    if (outcome.failure && !run.repetition) run.build_failure = outcome.failure;
  }
  if (outcome.failure) write_record(run.records_fd, failed_record(index, outcome.failure->status, outcome.failure->detail));
  return outcome;
}

void run_repetition(benchmark::State& state, CellRun& run) {
  for (auto _ : state) {
    Outcome outcome = run_next_repetition(run);
    if (outcome.failure) {
      state.SkipWithError((outcome.failure->status + ": " + outcome.failure->detail).c_str());
      break;
    }
    state.SetIterationTime(outcome.ms / 1e3);
    for (const auto& v : outcome.values) state.counters[counter_name(v)] = v.value;
  }
}

void register_cells(const Benchmark& b, const Options& options, const PerProcessValues& per_process,
                    std::optional<double> inject_pct) {
  for (const auto& cell : runnable_cells(b, options.overrides, per_process)) {
    Cell work = inject_pct ? with_injected_work(b, cell, *inject_pct) : cell;
    auto run = std::make_shared<CellRun>(CellRun{&b, work, options.records_fd, {}, {}, 0});
    benchmark::RegisterBenchmark(cell_name(b, cell).c_str(),
                                 [run](benchmark::State& state) { run_repetition(state, *run); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

// The one cell a --stallbench-serve line names (`REPETITIONS BENCH.NAME=VALUE ...`, a value for
// every parameter, checked as --stallbench-grid's are), with its repetitions; throws
// std::invalid_argument saying what is wrong with the line.
std::pair<CellRun, int> served_cell(const Family& family, const Options& options, const PerProcessValues& per_process,
                                    const std::string& line) {
  std::istringstream words(line);
  int repetitions = 0;
  Options one = options;
  one.grids.clear();
  one.overrides.clear();
  words >> repetitions;
  for (std::string grid; words >> grid;) one.grids.push_back(grid);
  for (const auto& b : family.benchmarks) {
    if (one.grids.empty() || one.grids.front().rfind(b.name + ".", 0) != 0) continue;
    if (repetitions < 1 || check_grids(family, one) >= 0) break;
    auto cells = runnable_cells(b, one.overrides, per_process);
    if (cells.size() != 1) break;
    return {CellRun{&b, cells.front(), options.records_fd, {}, {}, 0}, repetitions};
  }
  throw std::invalid_argument("--stallbench-serve: not one cell: " + line);
}

// --stallbench-serve: cells read from stdin, one a line, each run in this process as it is read,
// its records written as a Google Benchmark cell writes them (no Google Benchmark output); a line
// that names no one cell gets one `error` record. It ends at the end of its input. An orchestrator
// with many cells of one kind (a regex engine's, whose runtime takes a second to start) starts one
// process for them, and another only when it had to kill one.
int serve(const Family& family, const Options& options, const PerProcessValues& per_process) {
  for (std::string line; std::getline(std::cin, line);) {
    std::optional<std::pair<CellRun, int>> served;
    if (auto refused = failure_of([&] { served = served_cell(family, options, per_process, line); })) {
      write_record(options.records_fd, start_record(0));
      write_record(options.records_fd, failed_record(0, refused->status, refused->detail));
      continue;
    }
    auto& [run, repetitions] = *served;
    while (run.repetitions_started < repetitions) run_next_repetition(run);  // as Google Benchmark's repetitions
  }
  return 0;
}

// --stallbench-cells: what the orchestrator plans from, instead of reading cell names back.
int print_cells(const Family& family, const Options& options, const PerProcessValues& per_process) {
  for (const auto& b : family.benchmarks) {
    if (b.name != options.cells) continue;
    std::puts(describe_cells(b, runnable_cells(b, options.overrides, per_process)).c_str());
    return 0;
  }
  std::string valid;
  for (const auto& b : family.benchmarks) valid += (valid.empty() ? "" : ", ") + b.name;
  std::fprintf(stderr, "%s: --stallbench-cells %s: no such benchmark (valid: %s)\n", family.name.c_str(),
               options.cells.c_str(), valid.c_str());
  return 2;
}

// The family built from its inputs, or the exit code after saying why it could not be.
std::variant<Family, int> build_family(const FamilyFromInputs& maker, const Options& options) {
  try {
    Family family = maker.make(Inputs(maker.inputs, options.inputs));
    if (auto problem = declaration_problem(family); !problem.empty()) throw std::logic_error(problem);
    add_node_line_params(family);
    return family;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", maker.name.c_str(), e.what());
    return 2;
  }
}

}  // namespace

int run_main(int argc, char** argv, Family family) {
  std::string name = family.name;
  return run_main(argc, argv, FamilyFromInputs{name, {}, [family = std::move(family)](const Inputs&) { return family; }});
}

int run_main(int argc, char** argv, FamilyFromInputs maker) {
  Options options;
  if (int rc = parse_options(argc, argv, maker, options); rc >= 0) return rc;
  auto built = build_family(maker, options);
  if (const int* rc = std::get_if<int>(&built)) return *rc;
  Family family = std::move(std::get<Family>(built));  // the registered cells point into it: it outlives them
  if (int rc = check_grids(family, options); rc >= 0) return rc;
  if (options.describe) {
    std::puts(describe(family, maker.inputs).c_str());
    return 0;
  }
  try {
    auto per_process = apply_per_process(family, options.overrides);
    if (!options.cells.empty()) return print_cells(family, options, per_process);
    if (options.serve) return serve(family, options, per_process);
    for (auto& [name, value] : per_process) benchmark::AddCustomContext(name, value);
    for (const auto& b : family.benchmarks) {
      auto inject_pct = injected_work_pct(family.name, b.name);
      if (inject_pct) benchmark::AddCustomContext("stallbench_inject_work_pct:" + b.name, std::to_string(*inject_pct));
      register_cells(b, options, per_process, inject_pct);
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", family.name.c_str(), e.what());
    return 2;
  }
  for (const auto& [library, version] : common_versions()) benchmark::AddCustomContext("version:" + library, version);
  for (const auto& [library, version] : family.versions) benchmark::AddCustomContext("version:" + library, version);
  benchmark::AddCustomContext("stallbench_family", family.name);

  int bench_argc = static_cast<int>(options.passthrough.size());
  std::vector<char*> bench_argv;
  for (auto& arg : options.passthrough) bench_argv.push_back(arg.data());
  bench_argv.push_back(nullptr);
  benchmark::Initialize(&bench_argc, bench_argv.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, bench_argv.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace stallbench::bench
