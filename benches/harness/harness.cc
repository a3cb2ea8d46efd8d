#include "harness.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "grid.h"
#include "inject.h"

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

void Counters::require_declared(const std::string& metric) const {
  for (const auto& m : declared_)
    if (m.name == metric) return;
  throw std::logic_error("metric '" + metric + "' is not declared by this benchmark");
}

void Counters::set(const std::string& metric, double value) {
  require_declared(metric);
  values_[metric] = value;
}

void Counters::set(const std::string& metric, const Subcase& subcase, double value) {
  require_declared(metric);
  // metric@key=value@key=value: '@' and '=' cannot appear in a metric name or a parameter
  // value, so the converter can split the sub-case off again.
  std::string name = metric;
  for (const auto& [key, text] : subcase) {
    if (key.empty() || text.empty() || (key + text).find_first_of("@=#;/:, \t") != std::string::npos)
      throw std::logic_error("sub-case " + key + "=" + text + " of metric '" + metric + "' is not a plain word");
    name += "@" + key + "=" + text;
  }
  values_[name] = value;
}

void Counters::series(const std::string& metric, const std::vector<double>& values) {
  require_declared(metric);
  // '#' cannot appear in a metric name, so the converter can split the index off again.
  for (std::size_t i = 0; i < values.size(); ++i) values_[metric + "#" + std::to_string(i)] = values[i];
}

namespace {

// The orchestrator reads these lines from stderr to show progress, to enforce the
// per-repetition timeout, and to keep the finished repetitions of a cell whose process later
// dies (Google Benchmark writes its JSON only at the end). Harmless when run by hand.
void progress(const char* event, int repetition, const std::map<std::string, double>* counters = nullptr) {
  std::string line = "@stallbench ";
  line.append(event).append(" ").append(std::to_string(repetition));
  if (counters != nullptr) line.append(" ").append(nlohmann::json(*counters).dump());
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

// State shared by the repetitions of one cell: the scenario is built once, on first use, so a
// failure to build it is reported like any other failure of the cell.
struct CellRun {
  const Benchmark* benchmark;
  Cell cell;  // what `make` sees: the declared values, or more work under STALLBENCH_INJECT_WORK
  Repetition repetition;
  std::string build_failure;  // "<status>: <detail>" when make() failed
  int repetitions_started = 0;
};

void run_repetition(benchmark::State& state, CellRun& run) {
  for (auto _ : state) {
    progress("rep-start", run.repetitions_started++);
    if (!run.build_failure.empty()) {  // the scenario could not be built: every repetition says why
      progress("rep-failed", run.repetitions_started - 1);
      state.SkipWithError(run.build_failure.c_str());
      break;
    }
    std::string failure;
    try {
      if (!run.repetition) run.repetition = run.benchmark->make(run.cell);
      Counters counters(run.benchmark->metrics);
      // No-ops unless run under callgrind (`run --instructions`), where they make each dump hold
      // exactly one repetition's instructions, all threads included; the label names it.
      CALLGRIND_ZERO_STATS;
      double ms = run.repetition(counters);
      std::string dump_label = "stallbench-rep " + std::to_string(run.repetitions_started - 1);
      CALLGRIND_DUMP_STATS_AT(dump_label.c_str());
      state.SetIterationTime(ms / 1e3);
      for (const auto& [name, value] : counters.values()) state.counters[name] = value;
      progress("rep-end", run.repetitions_started - 1, &counters.values());
      continue;
    } catch (const CellFailure& e) {
      failure = e.status + ": " + e.what();
    } catch (const std::exception& e) {
      failure = std::string("error: ") + e.what();
    }
    if (!run.repetition) run.build_failure = failure;
    progress("rep-failed", run.repetitions_started - 1);
    state.SkipWithError(failure.c_str());
    break;
  }
}

void register_cells(const Benchmark& b, const GridOverrides& overrides, std::optional<double> inject_pct) {
  auto cells = expand_grid(b, overrides);  // checks the values even when the benchmark cannot run here
  if (b.missing && !b.missing().empty()) return;
  for (auto& values : cells) {
    Cell cell(values);
    if (b.valid && !b.valid(cell)) continue;
    Cell work = inject_pct ? with_injected_work(b, cell, *inject_pct) : cell;
    auto run = std::make_shared<CellRun>(CellRun{&b, work, {}, {}, 0});
    benchmark::RegisterBenchmark(cell_name(b, cell).c_str(),
                                 [run](benchmark::State& state) { run_repetition(state, *run); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int run_main(int argc, char** argv, Family family) {
  Options options;
  if (int rc = parse_options(argc, argv, family, options); rc >= 0) return rc;
  if (options.describe) {
    std::puts(describe(family).c_str());
    return 0;
  }
  try {
    for (auto& [name, value] : apply_per_process(family, options.overrides)) benchmark::AddCustomContext(name, value);
    for (const auto& b : family.benchmarks) {
      auto inject_pct = injected_work_pct(family.name, b.name);
      if (inject_pct) benchmark::AddCustomContext("stallbench_inject_work_pct:" + b.name, std::to_string(*inject_pct));
      register_cells(b, options.overrides, inject_pct);
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
