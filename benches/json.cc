// Family `json`: a large JSON parse blocking the loop (seed 000: JSON.parse of 1,000,000 orders,
// 84.8 MB, stalled Node's loop for 149 ms), parser against parser and mode against mode.
//
// Each repetition of a `parse` cell first parses with a fresh parser (fresh buffers: allocation
// and page faults are paid here, and the RSS it adds is measured), then parses again with the
// same parser inside a measured window: the three stall instruments run and the /health probe
// polls the server on the loop. A memcpy of the same buffer is timed in the same process as the
// floor. `walk` times every parser's walk of every value of each generated shape at steady state
// (repeated for a minimum time), beside a reference walk that uses the same library the way its
// own documentation does: their ratio is the adapter's overhead. `node-parse` times Node's
// JSON.parse of the identical bytes, per chosen Node line; `input` and `input-node` parse a user's
// own file (`stallbench json --input FILE`). Every answer is checked: the generator knows what the
// record task and the walk must find, and a user's file is checked against simdjson's DOM where
// both parse.
#include <uv.h>

#include <memory>
#include <optional>
#include <string>

#include "../workloads/common/owned_loop.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/common/uv_clock.h"
#include "../workloads/json/documents.h"
#include "../workloads/json/input_file.h"
#include "../workloads/json/node_parse.h"
#include "../workloads/json/parse_trial.h"
#include "../workloads/json/steady_state.h"
#include "harness/harness.h"
#include "harness/protocol.h"
#include "harness/runtime_param.h"
#include "session_metrics.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double mb_per_s(std::size_t bytes, double ms) { return ms > 0 ? static_cast<double>(bytes) / 1e6 / (ms / 1e3) : 0; }

void check_walk(const std::string& who, const WalkAnswer& walked, const std::string& whom, const WalkAnswer& expected) {
  if (!walked.agrees_with(expected))
    throw std::runtime_error(who + " walked " + walked.describe() + "; " + whom + " " + expected.describe());
}

// The adapter's walk (its parser already used once) against a fresh reference walk of the same
// library, in alternating rounds until `min_ms`; both answers checked against `expected`.
AgainstReference walk_against_reference(const ParserEntry& entry, JsonParser& parser, const JsonText& json,
                                        double min_ms, const WalkAnswer* expected) {
  auto reference = entry.reference(json.size());
  WalkAnswer walked, referenced;
  AgainstReference r = time_against_reference(
      min_ms, [&] { walked = parser.walk(json); }, [&] { referenced = reference->walk(json); });
  if (expected) check_walk(entry.name, walked, "expected", *expected);
  check_walk(entry.name + "'s reference walk", referenced, entry.name, walked);
  return r;
}

const std::vector<Metric>& against_reference_metrics() {
  static const std::vector<Metric> metrics = {
      {.name = "reference_ms", .unit = "ms", .tracked = false,
       .doc = "the library's own idiomatic walk of the same document, steady state (median), timed beside the adapter"},
      {.name = "reference_mb_s", .unit = "MB/s", .better = Better::higher, .tracked = false, .doc = "bytes / reference_ms"},
      {.name = "adapter_overhead_ratio", .unit = "ratio",
       .doc = "adapter's steady walk / the reference walk's, in alternating rounds: what the adapter costs (aim <= 1.10)"},
  };
  return metrics;
}

void report_against_reference(Counters& out, const AgainstReference& r, std::size_t bytes) {
  out.set("reference_ms", r.reference.median_ms);
  out.set("reference_mb_s", mb_per_s(bytes, r.reference.median_ms));
  out.set("adapter_overhead_ratio", r.overhead_ratio);
}

// One parser, one mode, one document: what `parse` and `input` cells share.
struct ParseCell {
  OwnedLoop loop;
  StallSession session{loop.get()};
  const ParserEntry* entry = nullptr;
  JsonText json;
  ParseJob job{};
  std::unique_ptr<WorkerPool> worker;
  std::vector<char> memcpy_target;
  std::optional<RecordAnswer> expected;  // the generator's answer
  std::optional<WalkAnswer> dom_walk;    // simdjson DOM's walk of a user's file, when it parses it
  WalkAnswer walked;                      // the last walk of a user's file

  ParseCell(const Cell& cell, JsonText text) : entry(&find_parser(cell.text("parser"))), json(std::move(text)) {
    job.loop = loop.get();
    job.mode = parse_mode(cell.text("mode"));
    job.json = &json;
    if (job.mode == ParseMode::worker) job.worker = (worker = std::make_unique<WorkerPool>(loop.get(), 1)).get();
  }

  void check(const ParseJob& done) const {
    if (expected && done.answer != *expected)
      throw std::runtime_error(entry->name + " answered " + done.answer.describe() + "; expected " + expected->describe());
    if (dom_walk && done.walk) check_walk(entry->name, done.walked, "simdjson-dom walked", *dom_walk);
  }

  double repetition(Counters& out) {
    ParseTrial t;
    try {
      t = run_parse_trial(session, *entry, job, memcpy_target);
    } catch (const ParseError& e) {  // the parser's refusal, with its byte offset
      throw CellFailure("rejected", e.what());
    }
    check(t.first);
    check(t.steady);
    walked = t.steady.walked;

    report_session(out, t.window);
    double ms = t.window.work_ms();
    out.set("parse_ms", ms);
    out.set("parse_mb_s", mb_per_s(json.size(), ms));
    out.set("first_parse_ms", t.first_ms);
    out.set("rss_growth_mb", t.rss_growth_mb);
    out.set("memcpy_ms", t.floor_ms);
    out.set("memcpy_mb_s", mb_per_s(json.size(), t.floor_ms));
    out.set("memcpy_gap_ratio", t.floor_ms > 0 ? ms / t.floor_ms : 0);
    out.set("payload_mib", static_cast<double>(json.size()) / kMiB);
    out.set("turns", static_cast<double>(t.steady.turns));
    return ms;
  }
};

std::vector<Metric> parse_metrics() {
  return with_session_metrics({
      {.name = "parse_ms", .unit = "ms", .doc = "steady state: reused parser, from the start of the work to its answer on the loop"},
      {.name = "parse_mb_s", .unit = "MB/s", .better = Better::higher, .doc = "payload bytes / parse_ms (MB = 10^6 bytes)"},
      {.name = "first_parse_ms", .unit = "ms", .doc = "a fresh parser's first parse: allocation and page faults included"},
      {.name = "rss_growth_mb", .unit = "MiB", .doc = "peak resident memory added by the first parse"},
      {.name = "memcpy_ms", .unit = "ms", .tracked = false, .doc = "the floor: one memcpy of the payload (fastest of 3)"},
      {.name = "memcpy_mb_s", .unit = "MB/s", .better = Better::higher, .tracked = false, .doc = "memcpy throughput, same run"},
      {.name = "memcpy_gap_ratio", .unit = "ratio", .doc = "parse_ms / memcpy_ms: how far above the floor"},
      {.name = "payload_mib", .unit = "MiB", .tracked = false, .doc = "the document's size"},
      {.name = "turns", .unit = "count", .tracked = false, .doc = "loop turns the parse took (incremental, ndjson)"},
  });
}

std::vector<std::string> parser_names() {
  std::vector<std::string> names;
  for (const auto& p : parsers()) names.push_back(p.name);
  return names;
}

// The smoke grid's parsers: the fastest and the slowest of those compiled in.
std::vector<std::string> smoke_parsers() {
  std::vector<std::string> chosen;
  for (const auto& name : {"simdjson-ondemand", "nlohmann"})
    for (const auto& p : parsers())
      if (p.name == name) chosen.push_back(name);
  return chosen;
}

Param parser_param() {
  return {.name = "parser", .values = parser_names(), .smoke = smoke_parsers(), .choices = parser_names(),
          .doc = "the parser (those whose library was found at build time)"};
}

// Stated beside the parser so that results say which numbers are comparable: a cell runs only in
// its parser's mode (RapidJSON offers both, as `rapidjson` and `rapidjson-fast`).
Param numbers_param() {
  return {.name = "numbers", .values = number_mode_names(), .smoke = number_mode_names(), .choices = number_mode_names(),
          .doc = "the parser's number mode: exact (correctly rounded doubles) or fast (a shortcut that can be off by an "
                 "ulp); compare throughput within one mode"};
}

bool in_its_number_mode(const Cell& cell) {
  return number_mode_name(find_parser(cell.text("parser")).numbers) == cell.text("numbers");
}

Param count_param() {
  return {.name = "count", .values = {"1000000"}, .smoke = {"20000"}, .full = {"100000", "1000000"},
          .range = {{1, 40'000'000}}, .doc = "records in the payload (1,000,000 orders = 84.8 MiB, seed 000)"};
}

Param record_shape_param() {
  return {.name = "shape", .values = {"orders"}, .full = record_shape_names(), .choices = record_shape_names(),
          .doc = "record shape (workloads/json/shapes.json)"};
}

Param min_time_param(const std::string& what) {
  return {.name = "min_time_ms", .values = {"300"}, .smoke = {"30"}, .range = {{1, 60'000}},
          .doc = what + " repeated until this many milliseconds have passed (steady state: the median)"};
}

// One cell per chosen Node line (node_line 26, system).
Param node_line_param() {
  return runtime_param({.values = {"node"}, .smoke = {"node"}}, "the Node line (stallbench --node LINES)");
}

Repetition make_parse(const Cell& cell) {
  const Shape& shape = find_shape(cell.text("shape"));
  ParseMode mode = parse_mode(cell.text("mode"));
  Payload payload = generate_payload(shape, static_cast<std::size_t>(cell.integer("count")), mode_layout(mode));
  auto state = std::make_shared<ParseCell>(cell, std::move(payload.json));
  state->expected = payload.expected;
  state->job.task = shape.task;
  state->job.per_turn = static_cast<std::size_t>(cell.integer("per_turn"));
  return [state](Counters& out) { return state->repetition(out); };
}

Benchmark parse_benchmark() {
  return {
      .name = "parse",
      .doc = "A generated payload parsed inline, on the pool, on a worker thread or a few records per loop turn, "
             "with the loop's stalls and /health latency measured; first parse and steady state apart.",
      .params =
          {
              parser_param(),
              numbers_param(),
              // Off the loop, every parser's parse takes as long as inline and /health stays fast alike:
              // `worker` runs only for the parsers that run in every mode (On-Demand), where the modes are
              // compared side by side; `pool`, the full profile's, runs every parser off the loop.
              {.name = "mode", .values = {"inline", "worker", "incremental", "ndjson"},
               .smoke = {"inline", "worker", "incremental", "ndjson"}, .full = parse_mode_names(),
               .choices = parse_mode_names(),
               .doc = "inline | pool (libuv pool; every parser) | worker (dedicated thread; the parsers that also "
                      "step: simdjson-ondemand) | incremental (On-Demand, per_turn records per loop turn) | ndjson "
                      "(iterate_many, per_turn documents per turn)"},
              record_shape_param(),
              count_param(),
              {.name = "per_turn", .values = {"0", "10000"}, .smoke = {"0", "1000"}, .full = {"0", "1000", "10000", "100000"},
               .range = {{0, 10'000'000}}, .doc = "records per loop turn for incremental and ndjson; 0 for the other modes"},
          },
      .metrics = parse_metrics(),
      .timeout_s = 300,
      .make = make_parse,
      .valid =
          [](const Cell& cell) {
            ParseMode mode = parse_mode(cell.text("mode"));
            bool steps = mode_steps(mode);
            bool every_mode = find_parser(cell.text("parser")).steps;
            return in_its_number_mode(cell) && (cell.integer("per_turn") > 0) == steps &&
                   (every_mode || (!steps && mode != ParseMode::worker));
          },
  };
}

// Every value of a generated document walked: a fresh parser's first walk, then the adapter and
// the library's reference walk in alternating rounds for min_time_ms.
Repetition make_walk(const Cell& cell) {
  struct WalkCell {
    const ParserEntry* entry;
    Document doc;
    double min_ms;
  };
  auto state = std::make_shared<WalkCell>(WalkCell{
      &find_parser(cell.text("parser")),
      generate_document(find_shape(cell.text("shape")), static_cast<std::size_t>(cell.integer("kb")) * 1024),
      static_cast<double>(cell.integer("min_time_ms"))});
  return [state](Counters& out) {
    const JsonText& json = state->doc.json;
    auto parser = state->entry->make(json.size());
    std::uint64_t start = uv_hrtime();
    WalkAnswer first = parser->walk(json);
    double first_ms = ms_since(start);
    check_walk(state->entry->name, first, "expected", state->doc.expected);
    AgainstReference r = walk_against_reference(*state->entry, *parser, json, state->min_ms, &state->doc.expected);
    out.set("walk_ms", r.adapter.median_ms);
    out.set("walk_mb_s", mb_per_s(json.size(), r.adapter.median_ms));
    out.set("first_walk_ms", first_ms);
    out.set("walk_iterations", static_cast<double>(r.adapter.iterations));
    out.set("document_mib", static_cast<double>(json.size()) / kMiB);
    report_against_reference(out, r, json.size());
    return r.adapter.median_ms;
  };
}

Benchmark walk_benchmark() {
  std::vector<Metric> metrics = {
      {.name = "walk_ms", .unit = "ms", .doc = "steady state: the median walk of every value with a reused parser"},
      {.name = "walk_mb_s", .unit = "MB/s", .better = Better::higher, .doc = "document bytes / walk_ms (MB = 10^6 bytes)"},
      {.name = "first_walk_ms", .unit = "ms", .tracked = false, .doc = "a fresh parser's first walk"},
      {.name = "walk_iterations", .unit = "count", .tracked = false, .doc = "walks timed for walk_ms"},
      {.name = "document_mib", .unit = "MiB", .tracked = false, .doc = "the generated document's size"},
  };
  metrics.insert(metrics.end(), against_reference_metrics().begin(), against_reference_metrics().end());
  return {
      .name = "walk",
      .doc = "Each parser walks every value of a generated document of each shape at steady state, beside the "
             "library's own idiomatic walk (the reference): MB/s per shape and the adapter's overhead.",
      .params = {parser_param(), numbers_param(),
                 // The default profile walks three shapes that differ most (strings, numbers, records) to
                 // stay a few minutes; nightly and full walk every shape.
                 {.name = "shape", .values = {"tweets", "coordinates", "orders"}, .smoke = {"tweets", "coordinates"},
                  .full = shape_names(), .nightly = shape_names(), .choices = shape_names(),
                  .doc = "document shape (workloads/json/shapes.json)"},
                 {.name = "kb", .values = {"1024"}, .smoke = {"256"}, .full = {"1024", "16384"}, .range = {{1, 4'000'000}},
                  .doc = "document size in KiB (generated up to at least this)"},
                 min_time_param("each walk (adapter and reference)")},
      .metrics = metrics,
      .timeout_s = 120,
      .make = make_walk,
      .valid = in_its_number_mode,
  };
}

// simdjson DOM's walk of the user's file, or nothing when it refuses it (the cell's parser decides).
std::optional<WalkAnswer> dom_walk_of(const JsonText& json) {
  if (parsers().empty() || parsers().front().name != "simdjson-dom") return std::nullopt;
  try {
    return parsers().front().make(json.size())->walk(json);
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

Repetition make_input(const std::string& path, const Cell& cell) {
  auto state = std::make_shared<ParseCell>(cell, read_input(path));
  state->job.walk = true;
  if (state->entry->name != "simdjson-dom") state->dom_walk = dom_walk_of(state->json);
  auto min_ms = static_cast<double>(cell.integer("min_time_ms"));
  return [state, min_ms](Counters& out) {
    state->repetition(out);
    auto parser = state->entry->make(state->json.size());
    parser->walk(state->json);  // the steady state starts from a parser that has parsed once
    AgainstReference r = walk_against_reference(*state->entry, *parser, state->json, min_ms, &state->walked);
    out.set("parse_ms", r.adapter.median_ms);
    out.set("parse_mb_s", mb_per_s(state->json.size(), r.adapter.median_ms));
    out.set("steady_iterations", static_cast<double>(r.adapter.iterations));
    out.set("values", static_cast<double>(state->walked.values));
    report_against_reference(out, r, state->json.size());
    return r.adapter.median_ms;
  };
}

// `path`: the user's file; empty (no --input), the benchmark has no cells.
Benchmark input_benchmark(const std::string& path) {
  auto metrics = parse_metrics();
  for (auto& m : metrics)
    if (m.name == "parse_ms")
      m.doc = "steady state: the median of walks repeated for min_time_ms with a reused parser (the measured window "
              "parse, in the cell's mode, feeds the stall and /health metrics)";
  metrics.push_back({.name = "steady_iterations", .unit = "count", .tracked = false, .doc = "walks timed for parse_ms"});
  metrics.push_back({.name = "values", .unit = "count", .tracked = false, .doc = "JSON values in the document"});
  metrics.insert(metrics.end(), against_reference_metrics().begin(), against_reference_metrics().end());
  return {
      .name = "input",
      .doc = "Your own JSON file (stallbench json --input FILE): every value walked by each parser, first parse and "
             "steady state apart, beside the library's reference walk, with the same stall and /health measurements; "
             "a file a parser refuses (malformed, truncated, empty, not UTF-8, too deep) is its message and byte offset.",
      .params = {parser_param(), numbers_param(),
                 {.name = "mode", .values = {"inline"}, .full = {"inline", "pool", "worker"},
                  .choices = {"inline", "pool", "worker"}, .doc = "where the measured window's parse runs"},
                 min_time_param("each walk (adapter and reference)")},
      .metrics = metrics,
      .timeout_s = 600,
      .make = [path](const Cell& cell) { return make_input(path, cell); },
      .valid = [path](const Cell& cell) { return !path.empty() && in_its_number_mode(cell); },
  };
}

Repetition make_input_node(const std::string& path, const Cell& cell) {
  struct NodeInputCell {
    std::string node, runtime, file;
    std::size_t bytes;
    std::optional<WalkAnswer> dom_walk;
    double min_ms;
  };
  JsonText json = read_input(path);
  auto state = std::make_shared<NodeInputCell>(NodeInputCell{runtime_node_binary(cell), cell.text("runtime") + kNodeLineMark + cell.text(std::string(kNodeLineParam)),
                                                             path, json.size(), dom_walk_of(json),
                                                             static_cast<double>(cell.integer("min_time_ms"))});
  return [state](Counters& out) {
    NodeWalk r = run_node_walk(state->node, state->file, state->min_ms);
    if (!r.rejected.empty()) throw CellFailure("rejected", state->runtime + " (" + r.version + "): " + r.rejected);
    if (state->dom_walk) check_walk(state->runtime, r.answer, "simdjson-dom walked", *state->dom_walk);
    out.set("node_parse_ms", r.steady_ms);
    out.set("node_first_parse_ms", r.first_ms);
    out.set("node_parse_mb_s", mb_per_s(state->bytes, r.steady_ms));
    out.set("steady_iterations", static_cast<double>(r.iterations));
    out.set("values", static_cast<double>(r.answer.values));
    return r.steady_ms;
  };
}

Benchmark input_node_benchmark(const std::string& path) {
  return {
      .name = "input-node",
      .doc = "Your own JSON file through Node's JSON.parse plus the same walk, per chosen Node line, first parse and "
             "steady state apart, in a node child process.",
      .params = {node_line_param(), min_time_param("JSON.parse + walk")},
      .metrics = {{.name = "node_parse_ms", .unit = "ms", .doc = "steady state: the median JSON.parse + walk"},
                  {.name = "node_first_parse_ms", .unit = "ms", .tracked = false, .doc = "the first one in a fresh node"},
                  {.name = "node_parse_mb_s", .unit = "MB/s", .better = Better::higher, .doc = "file bytes / node_parse_ms"},
                  {.name = "steady_iterations", .unit = "count", .tracked = false, .doc = "parses timed for node_parse_ms"},
                  {.name = "values", .unit = "count", .tracked = false, .doc = "JSON values in the document"}},
      .timeout_s = 600,
      .make = [path](const Cell& cell) { return make_input_node(path, cell); },
      .valid = [path](const Cell&) { return !path.empty(); },
  };
}

Repetition make_node(const Cell& cell) {
  const Shape& shape = find_shape(cell.text("shape"));
  Payload payload = generate_payload(shape, static_cast<std::size_t>(cell.integer("count")), Layout::array);
  struct NodeCell {
    NodeCell(std::string_view json, RecordAnswer expected, RecordTask task, std::string node)
        : file(std::string(json), "stallbench-json"), node(std::move(node)), expected(expected), task(std::move(task)) {}
    TempFile file;  // the identical bytes the C++ parsers parse
    std::string node;
    RecordAnswer expected;
    RecordTask task;
  };
  auto state = std::make_shared<NodeCell>(payload.json.view(), payload.expected, shape.task,
                                          runtime_node_binary(cell));
  return [state](Counters& out) {
    NodeParse r = run_node_parse(state->node, state->file.path(), state->task);
    if (r.answer != state->expected)
      throw std::runtime_error("node answered " + r.answer.describe() + "; expected " + state->expected.describe());
    out.set("node_parse_ms", r.steady_ms);
    out.set("node_first_parse_ms", r.first_ms);
    out.set("node_parse_mb_s", mb_per_s(state->file.bytes().size(), r.steady_ms));
    return r.steady_ms;
  };
}

Benchmark node_benchmark() {
  return {
      .name = "node-parse",
      .doc = "Node's JSON.parse (plus the same record task) on the identical payload file, in a node child process, "
             "per chosen Node line; the report divides it by each C++ parser's time.",
      .params = {record_shape_param(), count_param(), node_line_param()},
      .metrics = {{.name = "node_parse_ms", .unit = "ms", .doc = "second JSON.parse + task in one node process"},
                  {.name = "node_first_parse_ms", .unit = "ms", .tracked = false, .doc = "the first one (heap growth)"},
                  {.name = "node_parse_mb_s", .unit = "MB/s", .better = Better::higher, .doc = "payload bytes / node_parse_ms"}},
      .timeout_s = 300,
      .make = make_node,
  };
}

}  // namespace

int main(int argc, char** argv) {
  // Node's versions are the orchestrator's (meta.json's `nodes`, one per chosen line).
  std::vector<std::pair<std::string, std::string>> versions = {{"libuv", uv_version_string()}};
  for (const auto& p : parsers())
    if (versions.back().first != p.library) versions.emplace_back(p.library, p.version);
  return run_main(
      argc, argv,
      FamilyFromInputs{
          .name = "json",
          .inputs = {{.name = "input", .doc = "a user's JSON file for the input benchmarks (stallbench json --input)"}},
          .make = [versions](const Inputs& inputs) -> Family {
            // A file that cannot be parsed at all is refused here, before any cell exists: one line,
            // exit 2, which `stallbench json --input` passes on (from planning) without creating a run.
            const std::string& path = inputs.text("input");
            if (std::string refusal = path.empty() ? "" : refuse_input(path); !refusal.empty())
              throw std::invalid_argument(refusal);
            return {.name = "json",
                    .doc = "a large JSON parse blocking the loop: inline vs offloaded vs incremental, parser vs parser",
                    .benchmarks = {parse_benchmark(), walk_benchmark(), node_benchmark(), input_benchmark(path),
                                   input_node_benchmark(path)},
                    .versions = versions,
                    .os_packages = {"json"}};
          }});
}
