// The bench harness: a family declares its benchmarks as data (parameter grids, metrics with
// units and directions, a per-repetition timeout) and a factory for the scenario; the harness
// registers one Google Benchmark per grid cell, turns failures into rows, writes one record per
// repetition for the orchestrator and answers its questions (--stallbench-describe). Nothing here
// knows a family.
//
// Flags, besides every --benchmark_* flag of Google Benchmark:
//   --stallbench-describe          print the family, its inputs, benchmarks, grids and metrics as JSON
//   --stallbench-cells BENCH       print the cells of BENCH this process would run, as JSON
// (their shapes, and the records', are contract/protocol.schema.json's: docs/contract.md)
//   --stallbench-grid [BENCH.]NAME=V1,V2
//                                  replace a parameter's grid (repeatable); a per-process
//                                  parameter takes exactly one value
//   --stallbench-node LINE=PATH    a Node line to measure (repeatable, in order): every value of a
//                                  parameter's `node_values` runs once per line, the line in the
//                                  cell's own parameter node_line
//   --stallbench-input NAME=VALUE  one of the family's declared inputs (a catalogue file, a budget)
//   --stallbench-records-fd N      write the repetition records (records.h) to this open descriptor
//   --stallbench-serve             run the cells read from stdin, one a line (REPETITIONS followed by
//                                  BENCH.NAME=VALUE for every parameter), one after another in this
//                                  process, instead of the grid's: each writes its records as above
// Environment:
//   STALLBENCH_INJECT_WORK=FAMILY/BENCH:PCT
//                                  calibration knob (`stallbench calibrate`): that benchmark's
//                                  `work` parameters are scaled by 1 + PCT/100 before `make`
//                                  sees them, so it really does PCT% more work; rows keep the
//                                  declared values so the cells still match the baseline's
//   a per-process parameter's `env` (UV_THREADPOOL_SIZE), run by hand without --stallbench-grid
// Under callgrind (`stallbench run --instructions`) the harness zeroes the counts before each
// repetition and dumps them after it, so only the measured closure is counted, on every thread.
// A parameter not given keeps the first value of its default grid when per-process, its whole
// default grid otherwise.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace stallbench::bench {

enum class Better { lower, higher };

struct Metric {
  std::string name;  // ends in its unit: fs_latency_ms, parse_mb_s, pool_efficiency
  std::string unit;  // as written in the CSV: ms, us, MB/s, count, ratio, ...
  Better better = Better::lower;
  bool tracked = true;  // compared night to night; untracked metrics are context
  std::string doc;
  double min_effect_pct = 0;  // smallest change `compare` calls a regression; 0: its default (5%)
};

struct Param {
  std::string name;
  std::vector<std::string> values;  // the default grid (profile quick; nightly unless `nightly` is set)
  std::vector<std::string> smoke;   // the smoke profile's grid; empty means the first value
  std::vector<std::string> full;    // the full profile's grid; empty means `values`
  std::vector<std::string> nightly; // the nightly profile's grid (9+ repetitions); empty means `values`
  std::optional<std::pair<std::int64_t, std::int64_t>> range;  // integers in [first, second]
  std::vector<std::string> choices;                            // or one of these words
  // One value per process, because what it sets is read once per process (libuv's pool size) or
  // cannot be undone (a namespace entered): the orchestrator starts one process per value. The
  // cell holds its value like any other's.
  bool per_process = false;
  // A per-process parameter a library reads from the environment (libuv: UV_THREADPOOL_SIZE): the
  // harness exports the value before anything runs.
  std::string env;
  std::string doc;
  bool work = false;  // an integer the work is proportional to (iterations, bytes): the A/B knob scales it
  // Values that name Node (`node`, `node-linear`): each stands for one cell per Node line the
  // orchestrator chose, the line in the cell's parameter node_line (protocol.h); node_binary(cell)
  // gives that line's binary. At most one parameter of a benchmark has them.
  std::vector<std::string> node_values;
  // Optional, for values a range or a list cannot describe (a mix of job classes): what is wrong
  // with `value`, empty when it is valid. Runs wherever values are checked, so a bad value is
  // refused (exit 2) before anything runs.
  std::function<std::string(const std::string& value)> check;
};

// A number the benchmark's report reads (a time budget, a limit), declared beside the code that
// uses it and recorded in meta.json, so no other language repeats it.
struct Constant {
  std::string name;  // ends in its unit, as a metric's does: budget_ms
  double value = 0;
  std::string doc;
};

// One combination of parameter values, per-process ones included.
class Cell {
 public:
  explicit Cell(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  const std::string& text(const std::string& name) const;
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::int64_t integer(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// Extra parameters naming a sub-case that one repetition measured side by side with others
// (one job class of a mixed load: {{"class", "read"}}); its rows carry them in `params`.
using Subcase = std::map<std::string, std::string>;

// One measured value: a metric, its place in a series (one value per job, say) and its sub-case.
struct Value {
  std::string metric;
  std::optional<std::size_t> index;
  Subcase subcase;
  double value = 0;
};

// What one repetition reports; only declared metrics and finite values are accepted.
class Counters {
 public:
  explicit Counters(const std::vector<Metric>& declared) : declared_(declared) {}
  void set(const std::string& metric, double value);
  void set(const std::string& metric, const Subcase& subcase, double value);
  // Several values of one metric (one per job, say): rows in this order.
  void series(const std::string& metric, const std::vector<double>& values);
  // Sorted by metric, sub-case, then index; a value set twice keeps the last.
  std::vector<Value> values() const;

 private:
  using Key = std::tuple<std::string, Subcase, std::optional<std::size_t>>;
  void require_declared(const std::string& metric) const;
  void put(Key key, double value);
  const std::vector<Metric>& declared_;
  std::map<Key, double> values_;
};

// Thrown by a scenario to end its cell with a status other than `error`: `rejected` (the input
// or pattern was refused), `guarded` (an engine's own limit fired), `timeout`.
struct CellFailure : std::runtime_error {
  CellFailure(std::string status, const std::string& detail)
      : std::runtime_error(detail), status(std::move(status)) {}
  std::string status;
};

// One repetition: fills the counters, returns the repetition's time in milliseconds.
using Repetition = std::function<double(Counters&)>;

struct Benchmark {
  std::string name;
  std::string doc;
  std::vector<Param> params;
  std::vector<Metric> metrics;
  double timeout_s = 60;  // per repetition, enforced by the orchestrator
  // Called once per cell, before its first repetition; state lives in the returned closure.
  std::function<Repetition(const Cell&)> make;
  // Optional: called once per cell before its first repetition starts, for what the cell needs that
  // is not the work it measures (starting the language runtime an engine runs in). Its time counts
  // against the orchestrator's start-up allowance, not against the repetition's timeout.
  std::function<void(const Cell&)> prepare;
  // Optional: cells of the product that make no sense (a chunk size for an unchunked mode).
  std::function<bool(const Cell&)> valid;
  // CPU-bound and deterministic: `run --instructions` also counts its instructions under callgrind
  // (20-100x slower, so its grid must stay small enough for that).
  bool instructions = false;
  // Statuses that are this benchmark's findings rather than failures: a regex engine's guard firing
  // or its match overrunning the budget is what the ReDoS study measures. Such cells are still
  // rows with that status (and compare still flags a change), but they do not fail a run.
  std::vector<std::string> outcomes;
  // Optional: why the benchmark cannot run on this machine (a program it drives, such as a browser,
  // is not installed), empty when it can. Such a benchmark has no cells; the orchestrator says so
  // in one line and runs the rest.
  std::function<std::string()> missing;
  // It drives a runtime that reserves far more address space than it uses (Chromium's V8 sandbox
  // reserves a terabyte up front): the orchestrator caps its cells' data segment (RLIMIT_DATA)
  // instead of their address space, which such a runtime cannot start under.
  bool reserves_address_space = false;
  // Its cells may run one after another in one long-lived process (`--stallbench-serve`) when the
  // orchestrator runs a list of cells once each: what a cell needs that is not its work takes
  // seconds to start and stop (a browser, a language runtime) and is kept for the next. A cell
  // still makes its own state, and each repetition is timed from its own start.
  bool shares_process = false;
  // What its report reads besides the rows: budgets, limits (the description's `constants`).
  std::vector<Constant> constants;
  // The orchestrator's command that measures it (`doctor`), when no process of this binary can: a
  // user's own program under load. It has no cells and no `make`; its parameters and metrics are
  // declared here all the same, so that list, meta.json and its report read them as any other's.
  std::string measured_by;
};

// What a family declares for its own command and report besides its benchmarks (the regex
// family's engines: kind, semantics, flags honoured, what each refuses, the package that brings
// it): rows of named fields, each text or yes/no. The describe contract carries it (`tables`), the
// orchestrator keeps it in meta.json, and Python reads it instead of repeating a name.
using TableField = std::variant<std::string, bool>;
struct Table {
  std::string name;
  std::string doc;
  std::vector<std::map<std::string, TableField>> rows;
};

struct Family {
  std::string name;
  std::string doc;
  std::vector<Benchmark> benchmarks;
  std::vector<Table> tables;
  std::vector<std::pair<std::string, std::string>> versions;  // library -> version, for meta.json
  // Pinned npm sets (folders of scripts/packages/npm) its benchmarks use; the orchestrator installs
  // them on demand before running any of its cells.
  std::vector<std::string> npm_sets;
  // OS package lists (scripts/packages/<name>.txt) its optional engines, parsers or tools come from;
  // the orchestrator installs them when it runs the family. What the build needs is in core.txt.
  std::vector<std::string> os_packages;
};

// The Node binary of a Node cell (its node_line, see Param::node_values); throws
// std::invalid_argument when that line was not given to this process or the cell runs no Node.
std::string node_binary(const Cell& cell);

// A family-wide value the orchestrator gives on the command line (--stallbench-input NAME=VALUE):
// a catalogue file to read, a time budget. Unlike a parameter it names no cell and is not in the
// rows; the family's benchmarks are built from it (their grids may depend on it).
struct Input {
  std::string name;
  std::string doc;
  std::string fallback;  // the value when none is given; empty: no value
};

class Inputs {
 public:
  Inputs(std::vector<Input> declared, std::map<std::string, std::string> given)
      : declared_(std::move(declared)), given_(std::move(given)) {}
  // The given value, else the declared fallback (empty when neither); throws std::logic_error for
  // an input the family did not declare.
  const std::string& text(const std::string& name) const;
  // text() as a positive number; throws std::invalid_argument naming the input otherwise.
  double positive_number(const std::string& name) const;

 private:
  std::vector<Input> declared_;
  std::map<std::string, std::string> given_;
};

// A family whose benchmarks are built from its inputs. `make` throws std::invalid_argument (or
// std::runtime_error) on an input it cannot use: one line, exit 2, before anything runs.
struct FamilyFromInputs {
  std::string name;  // the family's, for messages before it exists
  std::vector<Input> inputs;
  std::function<Family(const Inputs&)> make;
};

// The whole main() of a family's bench binary.
int run_main(int argc, char** argv, FamilyFromInputs family);
int run_main(int argc, char** argv, Family family);  // a family without inputs

}  // namespace stallbench::bench
