// Family `browser`: the browser's event loop in a real browser (seeds 001, 003). A long task on
// the page's main thread -- seed 000's price report over `rows` rows, or JSON.parse of the orders
// payload -- runs inline, chunked by one of setTimeout(0), MessageChannel, requestIdleCallback,
// scheduler.yield and scheduler.postTask, or on a Web Worker, while a requestAnimationFrame loop
// runs and the driver clicks the page every click_ms through the protocol's input events. Reported:
// the frames the main thread rendered during the work and the longest gap between two, long tasks
// and long animation frames (their observers), each click's input delay and processing (Event
// Timing), and the time to finish. Every answer is checked against the C++ one (the report's
// closed form, the payload generator's sums), so every strategy computes the same thing.
//
// Chromium (Debian's) is driven headless by workloads/browser/driver/long_task.mjs: Node with the
// pinned playwright-core, started once per bench process and kept for every cell in it. The split:
// the page and its driver are JavaScript because that is what runs in a browser and what speaks the
// DevTools protocol; the grid, the answers and the metrics stay here, as in every family. Without
// Chromium the benchmarks declare themselves missing and the orchestrator skips them with one line.
#include <memory>

#include "../workloads/browser/session.h"
#include "../workloads/browser/setup.h"
#include "../workloads/json/payload.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/common/node_process.h"
#include "../workloads/report/price_report.h"
#include "harness/harness.h"
#include "harness/node_lines.h"

using namespace stallbench;
using namespace stallbench::bench;
using browser::PageRequest;
using browser::PageSummary;

namespace {

const std::vector<std::string> kStrategies = {"inline", "timeout", "message-channel", "idle-callback",
                                              "yield", "post-task", "worker"};
constexpr double kPageLimitS = 120;

bool chunked(const std::string& strategy) { return strategy != "inline" && strategy != "worker"; }

// The driver runs on the newest Node line the run was given, else on the node on PATH.
std::string driver_node() {
  std::string chosen;
  int newest = -1;
  for (const auto& [line, path] : node_lines()) {
    int number = std::isdigit(static_cast<unsigned char>(line.front())) ? std::stoi(line) : 0;
    if (number > newest) newest = number, chosen = path;
  }
  return chosen.empty() ? find_node() : chosen;
}

// One browser for every cell of this process (the orchestrator runs one cell per process; tests
// run several); started again after a run that overran its limit.
browser::BrowserSession& session() {
  static std::unique_ptr<browser::BrowserSession> current;
  if (!current || !current->alive()) {
    current.reset();
    std::string node = driver_node(), playwright = browser::find_playwright();
    if (node.empty()) throw std::runtime_error("no Node to run the browser driver (pinned lines: --node; or node on PATH)");
    if (playwright.empty()) throw std::runtime_error("playwright-core is not installed (scripts/bootstrap --npm browser)");
    current = std::make_unique<browser::BrowserSession>(browser::SessionSetup{node, browser::find_chromium(), playwright});
  }
  return *current;
}

void report_summary(Counters& out, const PageSummary& s) {
  out.set("total_ms", s.total_ms);
  out.set("frames", s.frames);
  out.set("frame_rate_hz", s.frame_rate_hz);
  out.set("frame_gap_max_ms", s.frame_gap_max_ms);
  out.set("longtasks", s.longtasks);
  out.set("longtask_max_ms", s.longtask_max_ms);
  out.set("loafs", s.loafs);
  out.set("loaf_max_ms", s.loaf_max_ms);
  out.set("chunks", s.chunks);
  out.set("chunk_max_ms", s.chunk_max_ms);
  out.set("clicks", static_cast<double>(s.clicks.size()));
  out.set("input_delay_max_ms", s.input_delay_max_ms);
  out.set("input_delay_p50_ms", s.input_delay_p50_ms);
  out.set("click_processing_max_ms", s.processing_max_ms);
  if (s.interaction_max_ms >= 0) out.set("interaction_max_ms", s.interaction_max_ms);
  out.set("work_start_ms", s.work_start_ms);
  out.set("work_end_ms", s.work_end_ms);
  out.series("frame_at_ms", s.frame_at_ms);
  std::vector<double> at, length, click_at, delay;
  for (const auto& t : s.longtask_spans) at.push_back(t.at), length.push_back(t.duration);
  for (const auto& c : s.clicks) click_at.push_back(c.at), delay.push_back(c.delay);
  out.series("longtask_at_ms", at);
  out.series("longtask_ms", length);
  out.series("click_at_ms", click_at);
  out.series("click_delay_ms", delay);
}

// Runs one page; `check` compares the page's answer with the C++ one (throws on a difference).
template <typename Check>
Repetition page_repetition(PageRequest request, Check check) {
  return [request, check](Counters& out) {
    browser::PageRun run;
    try {
      run = session().run(request);
    } catch (const std::runtime_error& e) {
      if (std::string(e.what()).rfind("timeout", 0) == 0) throw CellFailure("timeout", e.what());
      throw;
    }
    check(run.answer, out);
    PageSummary summary = browser::summarize_page(run);
    report_summary(out, summary);
    return summary.total_ms;
  };
}

PageRequest request_for(const Cell& cell, const std::string& work) {
  PageRequest r;
  r.work = work;
  r.strategy = cell.text("strategy");
  r.chunk = static_cast<std::uint64_t>(cell.integer("chunk"));
  r.click_ms = static_cast<int>(cell.integer("click_ms"));
  r.limit_s = kPageLimitS;
  return r;
}

Repetition make_report(const Cell& cell) {
  PageRequest request = request_for(cell, "report");
  request.size = static_cast<std::uint64_t>(cell.integer("rows"));
  PriceReport expected = expected_price_report(request.size);
  return page_repetition(request, [expected](const nlohmann::json& answer, Counters& out) {
    PriceReport got{answer.at("rows").get<std::uint64_t>(), answer.at("revenue_cents").get<std::int64_t>(),
                    answer.at("unit_price_cents_sum").get<std::int64_t>()};
    if (got != expected) throw std::runtime_error("the page's report gave " + got.describe() + "; expected " + expected.describe());
    out.set("revenue", got.revenue());
  });
}

Repetition make_parse(const Cell& cell) {
  PageRequest request = request_for(cell, "parse");
  Payload payload = generate_payload(find_shape("orders"), static_cast<std::size_t>(cell.integer("orders")), Layout::array);
  auto file = std::make_shared<TempFile>(std::string(payload.json.view()), "stallbench-browser");
  request.size = static_cast<std::uint64_t>(cell.integer("orders"));
  request.payload = file->path();
  RecordAnswer expected = payload.expected;
  return page_repetition(request, [file, expected](const nlohmann::json& answer, Counters& out) {
    RecordAnswer got{answer.at("records").get<std::uint64_t>(), answer.at("id_sum").get<std::uint64_t>(),
                     answer.at("amount_sum").get<double>(), answer.at("text_bytes").get<std::uint64_t>()};
    if (!(got == expected)) throw std::runtime_error("the page's parse gave " + got.describe() + "; expected " + expected.describe());
    out.set("records", static_cast<double>(got.records));
    out.set("payload_mib", static_cast<double>(file->bytes().size()) / (1024.0 * 1024.0));
  });
}

std::vector<Metric> page_metrics(std::vector<Metric> own) {
  std::vector<Metric> metrics = {
      {.name = "total_ms", .unit = "ms", .doc = "time to finish the work: from its start to its answer on the main thread"},
      {.name = "frames", .unit = "count", .better = Better::higher, .tracked = false,
       .doc = "requestAnimationFrame callbacks that ran while the work was going on (rendering steps taken)"},
      {.name = "frame_rate_hz", .unit = "Hz", .better = Better::higher, .doc = "frames / time to finish"},
      {.name = "frame_gap_max_ms", .unit = "ms", .doc = "the longest gap between two frames in the window"},
      {.name = "longtasks", .unit = "count", .tracked = false, .doc = "tasks of 50 ms or more (PerformanceObserver longtask)"},
      {.name = "longtask_max_ms", .unit = "ms", .doc = "the longest of them"},
      {.name = "loafs", .unit = "count", .tracked = false, .doc = "long animation frames (long-animation-frame observer)"},
      {.name = "loaf_max_ms", .unit = "ms", .doc = "the longest of them"},
      {.name = "chunks", .unit = "count", .tracked = false, .doc = "pieces the work ran in on the main thread"},
      {.name = "chunk_max_ms", .unit = "ms", .tracked = false, .doc = "the longest piece"},
      {.name = "clicks", .unit = "count", .tracked = false, .doc = "clicks in the window (every one sent is checked to be handled)"},
      {.name = "input_delay_max_ms", .unit = "ms", .doc = "worst click: from the input to its listener starting (Event Timing)"},
      {.name = "input_delay_p50_ms", .unit = "ms", .tracked = false, .doc = "median click's input delay"},
      {.name = "click_processing_max_ms", .unit = "ms", .tracked = false, .doc = "longest click listener run"},
      {.name = "interaction_max_ms", .unit = "ms", .tracked = false,
       .doc = "longest Event Timing duration of a click, input to next paint (only clicks of 16 ms or more are timed)"},
      {.name = "work_start_ms", .unit = "ms", .tracked = false, .doc = "timeline: when the work started in the window"},
      {.name = "work_end_ms", .unit = "ms", .tracked = false, .doc = "timeline: when its answer was back"},
      {.name = "frame_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each frame ran"},
      {.name = "longtask_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each long task started"},
      {.name = "longtask_ms", .unit = "ms", .tracked = false, .doc = "timeline: each long task's length"},
      {.name = "click_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each click happened"},
      {.name = "click_delay_ms", .unit = "ms", .tracked = false, .doc = "timeline: each click's input delay"},
  };
  metrics.insert(metrics.end(), own.begin(), own.end());
  return metrics;
}

// `strategies`: the default grid; `smoke`: the smoke profile's; the full profile runs every strategy.
// A cell costs a browser start (seconds on a loaded 2-core machine), so the default profile keeps
// the contrast (inline, two ways of chunking, a worker) and leaves the rest to `full` and --set.
std::vector<Param> page_params(Param size, Param chunk, std::vector<std::string> strategies,
                               std::vector<std::string> smoke) {
  return {
      {.name = "strategy", .values = std::move(strategies), .smoke = std::move(smoke), .full = kStrategies,
       .choices = kStrategies,
       .doc = "inline | timeout (setTimeout 0) | message-channel | idle-callback | yield (scheduler.yield) | "
              "post-task (scheduler.postTask) | worker (a Web Worker)"},
      std::move(chunk),
      std::move(size),
      {.name = "click_ms", .values = {"50"}, .range = {{10, 1000}}, .doc = "one click every click_ms during the window"},
  };
}

bool chunk_matches_strategy(const Cell& cell) { return (cell.integer("chunk") > 0) == chunked(cell.text("strategy")); }

std::string missing() { return browser::why_unavailable(); }

Benchmark report_benchmark() {
  return {
      .name = "report",
      .doc = "Seed 000's price report on the page's main thread, inline, chunked by each scheduling API, or on a "
             "Web Worker, while rAF frames and clicks are measured.",
      .params = page_params({.name = "rows", .values = {"2000000"}, .smoke = {"1000000"}, .full = {"20000000"},
                             .range = {{1, 1'000'000'000}}, .doc = "order rows (seed: 20,000,000)"},
                            {.name = "chunk", .values = {"0", "250000"}, .smoke = {"0", "250000"},
                             .full = {"0", "100000", "250000", "1000000"}, .range = {{0, 1'000'000'000}},
                             .doc = "rows per chunk for the chunked strategies (seed: 250,000); 0 for inline and worker"},
                            {"inline", "timeout", "yield", "worker"}, {"inline"}),
      .metrics = page_metrics({{.name = "revenue", .unit = "currency", .tracked = false, .doc = "the report's revenue (checked)"}}),
      .timeout_s = 300,
      .make = make_report,
      .valid = chunk_matches_strategy,
      .missing = missing,
      .reserves_address_space = true,
  };
}

Benchmark parse_benchmark() {
  return {
      .name = "parse",
      .doc = "JSON.parse of the orders payload (json family's generator) plus its record sums on the page's main "
             "thread, inline, chunked by each scheduling API, or on a Web Worker, while frames and clicks are measured.",
      .params = page_params({.name = "orders", .values = {"100000"}, .smoke = {"20000"}, .full = {"1000000"},
                             .range = {{1, 10'000'000}}, .doc = "records in the payload (1,000,000 = 84.8 MiB, seed 000)"},
                            {.name = "chunk", .values = {"0", "10000"}, .smoke = {"0", "10000"},
                             .full = {"0", "2000", "10000", "50000"}, .range = {{0, 10'000'000}},
                             .doc = "records per chunk for the chunked strategies; 0 for inline and worker"},
                            {"inline", "yield"}, {"yield"}),
      .metrics = page_metrics({{.name = "records", .unit = "count", .tracked = false, .doc = "records parsed (checked)"},
                               {.name = "payload_mib", .unit = "MiB", .tracked = false, .doc = "the payload's size"}}),
      .timeout_s = 300,
      .make = make_parse,
      .valid = chunk_matches_strategy,
      .missing = missing,
      .reserves_address_space = true,
  };
}

}  // namespace

int main(int argc, char** argv) {
  bool describing = false;
  for (int i = 1; i < argc; ++i) describing = describing || std::string(argv[i]) == "--stallbench-describe";
  // Asking Chromium its version costs a process start: only when describing (meta.json's versions).
  std::vector<std::pair<std::string, std::string>> versions;
  if (describing) {
    std::string chromium = browser::find_chromium();
    std::string version = chromium.empty() ? "not found (the browser family is skipped)" : browser::chromium_version(chromium);
    // Found but silent is not absent: the family still runs, and each cell records the version the
    // browser itself reports over the protocol.
    versions.emplace_back("chromium", !version.empty() ? version : "unknown (" + chromium + " --version printed no version)");
  }
  return run_main(argc, argv,
                  {.name = "browser",
                   .doc = "the browser's event loop in Chromium: a long task against frames and input, by scheduling strategy",
                   .benchmarks = {report_benchmark(), parse_benchmark()},
                   .versions = versions,
                   .npm_sets = {"browser"},
                   .os_packages = {"browser"}});
}
