// Family `json`: a large JSON parse blocking the loop (seed 000: JSON.parse of 1,000,000 orders,
// 84.8 MB, stalled Node's loop for 149 ms), parser against parser and mode against mode.
//
// Each repetition of a `parse` cell first parses with a fresh parser (fresh buffers: allocation
// and page faults are paid here, and the RSS it adds is measured), then parses again with the
// same parser inside a measured window: the three stall instruments run and the /health probe
// polls the server on the loop. A memcpy of the same buffer is timed in the same process as the
// floor. `node-parse` times Node's JSON.parse of the identical bytes; `input` parses a user's own
// file (`stallbench json --input FILE`). Every answer is checked: the generator knows what the
// record task must sum to, and a user's file is checked against simdjson's DOM where both parse.
#include <uv.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "../workloads/common/owned_loop.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/json/input_file.h"
#include "../workloads/json/node_parse.h"
#include "../workloads/json/parse_trial.h"
#include "../workloads/loop/node_process.h"
#include "harness/harness.h"
#include "session_metrics.h"

using namespace stallbench;
using namespace stallbench::bench;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double mb_per_s(std::size_t bytes, double ms) { return ms > 0 ? static_cast<double>(bytes) / 1e6 / (ms / 1e3) : 0; }

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
  std::optional<WalkAnswer> reference;   // simdjson DOM's walk of a user's file, when it parses it
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
    if (reference && !done.walked.agrees_with(*reference))
      throw std::runtime_error(entry->name + " walked " + done.walked.describe() + "; simdjson-dom walked " +
                               reference->describe());
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

Param count_param() {
  return {.name = "count", .values = {"1000000"}, .smoke = {"20000"}, .full = {"100000", "1000000"},
          .range = {{1, 40'000'000}}, .doc = "records in the payload (1,000,000 orders = 84.8 MiB, seed 000)"};
}

Param shape_param() {
  return {.name = "shape", .values = {"orders"}, .full = shape_names(), .choices = shape_names(),
          .doc = "payload shape (workloads/json/shapes.json)"};
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
              // `pool` is the full profile's: it tells the same story as `worker` at the cost of every
              // parser's slowest cells again.
              {.name = "mode", .values = {"inline", "worker", "incremental", "ndjson"},
               .smoke = {"inline", "worker", "incremental", "ndjson"}, .full = parse_mode_names(),
               .choices = parse_mode_names(),
               .doc = "inline | pool (libuv pool) | worker (dedicated thread) | incremental (On-Demand, per_turn "
                      "records per loop turn) | ndjson (iterate_many, per_turn documents per turn)"},
              shape_param(),
              count_param(),
              {.name = "per_turn", .values = {"0", "10000"}, .smoke = {"0", "1000"}, .full = {"0", "1000", "10000", "100000"},
               .range = {{0, 10'000'000}}, .doc = "records per loop turn for incremental and ndjson; 0 for the other modes"},
          },
      .metrics = parse_metrics(),
      .timeout_s = 300,
      .make = make_parse,
      .valid =
          [](const Cell& cell) {
            bool steps = mode_steps(parse_mode(cell.text("mode")));
            return (cell.integer("per_turn") > 0) == steps && (!steps || find_parser(cell.text("parser")).steps);
          },
  };
}

const char* input_path() {
  const char* path = std::getenv(kInputEnv);
  return path != nullptr && *path != '\0' ? path : nullptr;
}

Repetition make_input(const Cell& cell) {
  auto state = std::make_shared<ParseCell>(cell, read_input(input_path()));
  state->job.walk = true;
  if (state->entry->name != "simdjson-dom" && !parsers().empty() && parsers().front().name == "simdjson-dom") {
    try {
      state->reference = parsers().front().make(state->json.size())->walk(state->json);
    } catch (const ParseError&) {  // no reference; the cell's own parser decides
    }
  }
  return [state](Counters& out) {
    double ms = state->repetition(out);
    out.set("values", static_cast<double>(state->walked.values));
    return ms;
  };
}

Benchmark input_benchmark() {
  auto metrics = parse_metrics();
  metrics.push_back({.name = "values", .unit = "count", .tracked = false, .doc = "JSON values in the document"});
  return {
      .name = "input",
      .doc = "Your own JSON file (stallbench json --input FILE): every value walked by each parser, with the same "
             "stall and /health measurements; a malformed file gives each parser's error and byte offset.",
      .params = {parser_param(),
                 {.name = "mode", .values = {"inline"}, .full = {"inline", "pool", "worker"},
                  .choices = {"inline", "pool", "worker"}, .doc = "where the parse runs"}},
      .metrics = metrics,
      .timeout_s = 600,
      .make = make_input,
      .valid = [](const Cell&) { return input_path() != nullptr; },
  };
}

Repetition make_node(const Cell& cell) {
  const Shape& shape = find_shape(cell.text("shape"));
  Payload payload = generate_payload(shape, static_cast<std::size_t>(cell.integer("count")), Layout::array);
  struct NodeCell {
    NodeCell(std::string_view json, RecordAnswer expected, RecordTask task)
        : file(std::string(json), "stallbench-json"), node(loop::find_node()), expected(expected), task(std::move(task)) {}
    TempFile file;  // the identical bytes the C++ parsers parse
    std::string node;
    RecordAnswer expected;
    RecordTask task;
  };
  auto state = std::make_shared<NodeCell>(payload.json.view(), payload.expected, shape.task);
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
      .doc = "Node's JSON.parse (plus the same record task) on the identical payload file, in a node child process; "
             "the report divides it by each C++ parser's time. No cells without Node (STALLBENCH_NODE, else PATH).",
      .params = {shape_param(), count_param()},
      .metrics = {{.name = "node_parse_ms", .unit = "ms", .doc = "second JSON.parse + task in one node process"},
                  {.name = "node_first_parse_ms", .unit = "ms", .tracked = false, .doc = "the first one (heap growth)"},
                  {.name = "node_parse_mb_s", .unit = "MB/s", .better = Better::higher, .doc = "payload bytes / node_parse_ms"}},
      .timeout_s = 300,
      .make = make_node,
      .valid = [](const Cell&) { return !loop::find_node().empty(); },
  };
}

}  // namespace

int main(int argc, char** argv) {
  bool describing = false;
  for (int i = 1; i < argc; ++i) describing = describing || std::strcmp(argv[i], "--stallbench-describe") == 0;
  // A user's file that cannot be parsed at all is refused here, before any cell exists: one line,
  // exit 2, which `stallbench json --input` passes on (from planning) without creating a run.
  if (const char* path = input_path(); path != nullptr && !describing) {
    if (std::string refusal = refuse_input(path); !refusal.empty()) {
      std::fprintf(stderr, "json: %s\n", refusal.c_str());
      return 2;
    }
  }
  std::vector<std::pair<std::string, std::string>> versions = {{"libuv", uv_version_string()}};
  for (const auto& p : parsers())
    if (versions.back().first != p.library) versions.emplace_back(p.library, p.version);
  // Asking node its version costs a process start: only when describing (meta.json's versions).
  if (describing) {
    std::string node = loop::find_node(), version;
    if (!node.empty()) {
      try {
        version = loop::node_versions(node).node;
      } catch (const std::exception&) {  // a node that fails to start counts as none
      }
    }
    versions.emplace_back("node", version.empty() ? "not found (node-parse has no cells)" : version);
  }
  return run_main(argc, argv,
                  {.name = "json",
                   .doc = "a large JSON parse blocking the loop: inline vs offloaded vs incremental, parser vs parser",
                   .benchmarks = {parse_benchmark(), node_benchmark(), input_benchmark()},
                   .versions = versions});
}
