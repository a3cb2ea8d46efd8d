// Family `browser`: the browser's event loop in a real browser (seeds 001, 003). A long task on
// the page's main thread -- seed 000's price report over `rows` rows, or JSON.parse of the orders
// payload -- runs inline, chunked by one of setTimeout(0), MessageChannel, requestIdleCallback,
// scheduler.yield and scheduler.postTask, or on a Web Worker, while a requestAnimationFrame loop
// runs and the driver clicks the page every click_ms through the protocol's input events. Reported:
// the frames the main thread rendered during the work and the longest gap between two, long tasks
// and long animation frames (their observers), each click's input delay and processing (Event
// Timing), the time to finish and, on a Web Worker, its job's phases. Every answer is checked
// against the C++ one (the report's closed form, the payload generator's sums), so every strategy
// computes the same thing.
//
// Two browsers, each optional (workloads/browser/setup.cc declares them): Debian's Chromium over the
// DevTools protocol (playwright-core) and Debian's Firefox ESR over WebDriver BiDi (puppeteer-core),
// driven headless by workloads/browser/driver/long_task.mjs under Node, one driver per browser and
// bench process, kept for every cell in it. The split: the page and its driver are JavaScript
// because that is what runs in a browser and what speaks its protocol; the grid, the answers, the
// metrics and the verdicts' thresholds stay here, as in every family. A browser that is not
// installed has no cells; without either the benchmarks declare themselves missing and the
// orchestrator skips them with one line. A strategy whose API the browser lacks is `rejected` with
// the reason (a finding, not a failure).
#include <algorithm>
#include <memory>

#include "../workloads/browser/session.h"
#include "../workloads/browser/setup.h"
#include "../workloads/json/payload.h"
#include "../workloads/common/temp_file.h"
#include "../workloads/common/node_process.h"
#include "../workloads/report/price_report.h"
#include "browser_page.h"
#include "harness/harness.h"
#include "harness/node_lines.h"

using namespace stallbench;
using namespace stallbench::bench;
using browser::BrowserKind;
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

// One driver for the cells of one browser that follow each other in this process (the orchestrator
// serves a run's browser cells in one process); started again after a run that overran its limit.
// One browser at a time: another one left open would share the machine with the one measured.
browser::BrowserSession& session(const BrowserKind& kind, const std::string& driver) {
  static std::string open_for;
  static std::unique_ptr<browser::BrowserSession> current;
  std::string wanted = kind.name + "/" + driver;
  if (!current || !current->alive() || open_for != wanted) {
    current.reset();  // closes the browser, and waits for it
    open_for = wanted;
    std::string node = driver_node(), library = browser::find_library(kind);
    if (node.empty()) throw std::runtime_error("no Node to run the browser driver (pinned lines: --node; or node on PATH)");
    if (library.empty()) throw std::runtime_error(kind.library + " is not installed (scripts/bootstrap --npm browser)");
    current = std::make_unique<browser::BrowserSession>(
        browser::SessionSetup{node, kind.name, browser::find_browser(kind), library, driver});
  }
  return *current;
}

// INP and TBT verdicts' thresholds (web.dev/articles/inp, Lighthouse's TBT scoring), read by the
// report through the benchmarks' constants.
const std::vector<Constant> kThresholds = {
    {.name = "inp_good_ms", .value = 200, .doc = "INP at or under this is good (web.dev)"},
    {.name = "inp_poor_ms", .value = 500, .doc = "INP over this is poor; between: needs improvement"},
    {.name = "tbt_good_ms", .value = 150, .doc = "TBT at or under this is good (Lighthouse, desktop)"},
    {.name = "tbt_poor_ms", .value = 350, .doc = "TBT over this is poor (Lighthouse, desktop)"},
    {.name = "tbt_mobile_good_ms", .value = 200, .doc = "TBT good on mobile (Lighthouse; not used here: a desktop page)"},
    {.name = "tbt_mobile_poor_ms", .value = 600, .doc = "TBT poor on mobile (Lighthouse; not used here)"},
};

// The page files a LoAF's script can come from, in the order the `loaf_script_source` series
// numbers them (-1: another source).
const std::vector<std::string> kPageScripts = {"long_task.html", "long_task.js", "work.js", "worker.js"};

// Where tbt_ms came from, in the order the `tbt_signal` metric numbers them.
const std::vector<std::string> kTbtSignals = {browser::kTbtFromLongtasks, browser::kTbtFromFrames};

double index_in(const std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<double>(it - names.begin());
}

void report_loafs(Counters& out, const PageSummary& s) {
  out.set("loafs", s.loafs);
  out.set("loaf_max_ms", s.loaf_max_ms);
  out.set("loaf_blocking_max_ms", s.loaf_blocking_max_ms);
  out.set("loaf_blocking_sum_ms", s.loaf_blocking_sum_ms);
  std::vector<double> at, length, blocking, render, style, script, forced, invoker, source, position;
  for (const auto& l : s.loaf_list) {
    at.push_back(l.at), length.push_back(l.duration), blocking.push_back(l.blocking);
    render.push_back(l.render_start), style.push_back(l.style_layout_start);
    script.push_back(l.has_script ? l.script.duration : 0), forced.push_back(l.has_script ? l.script.forced_layout : 0);
    invoker.push_back(l.has_script ? index_in(browser::loaf_invoker_types(), l.script.invoker_type) : -1);
    source.push_back(l.has_script ? index_in(kPageScripts, l.script.file) : -1);
    position.push_back(l.has_script ? l.script.char_position : -1);
  }
  out.series("loaf_at_ms", at);
  out.series("loaf_ms", length);
  out.series("loaf_blocking_ms", blocking);
  out.series("loaf_render_start_ms", render);
  out.series("loaf_style_layout_start_ms", style);
  out.series("loaf_script_ms", script);
  out.series("loaf_script_forced_layout_ms", forced);
  out.series("loaf_script_invoker", invoker);
  out.series("loaf_script_source", source);
  out.series("loaf_script_char", position);
}

void report_summary(Counters& out, const PageSummary& s) {
  out.set("total_ms", s.total_ms);
  out.set("frames", s.frames);
  out.set("frame_rate_hz", s.frame_rate_hz);
  out.set("frame_gap_max_ms", s.frame_gap_max_ms);
  out.set("frame_interval_ms", s.frame_interval_ms);
  out.set("frame_longtasks", static_cast<double>(s.frame_longtask_spans.size()));
  out.set("frame_longtask_max_ms", s.frame_longtask_max_ms);
  out.set("tbt_ms", s.tbt_ms);
  out.set("tbt_frames_ms", s.tbt_frames_ms);
  out.set("tbt_signal", index_in(kTbtSignals, s.tbt_signal));
  // What the browser does not report is left out (no row), never zero.
  if (s.has_longtasks) {
    out.set("longtasks", s.longtasks);
    out.set("longtask_max_ms", s.longtask_max_ms);
  }
  if (s.has_loafs) report_loafs(out, s);
  out.set("input_lag_max_ms", s.delivery.lag_max_ms);
  out.set("clicks_backlogged", s.delivery.backlogged);
  // A backlogged repetition's clicks never sampled the work: no INP or input delay is the page's.
  if (s.inp_ms >= 0) {
    out.set("inp_ms", s.inp_ms);
    out.set("inp_input_delay_ms", s.inp_input_delay_ms);
    out.set("inp_processing_ms", s.inp_processing_ms);
    out.set("inp_presentation_ms", s.inp_presentation_ms);
    out.set("input_delay_max_ms", s.input_delay_max_ms);
    out.set("input_delay_p50_ms", s.input_delay_p50_ms);
  }
  if (s.has_worker_phases) {
    out.set("worker_start_ms", s.worker_start_ms);
    out.set("worker_post_message_ms", s.worker_post_message_ms);
    out.set("worker_compute_ms", s.worker_compute_ms);
    out.set("worker_answer_ms", s.worker_answer_ms);
    out.set("worker_settle_ms", s.worker_settle_ms);
  }
  out.set("chunks", s.chunks);
  out.set("chunk_max_ms", s.chunk_max_ms);
  out.set("clicks", static_cast<double>(s.clicks.size()));
  out.set("click_processing_max_ms", s.processing_max_ms);
  if (s.interaction_max_ms >= 0) out.set("interaction_max_ms", s.interaction_max_ms);
  out.set("work_start_ms", s.work_start_ms);
  out.set("work_end_ms", s.work_end_ms);
  out.series("frame_at_ms", s.frame_at_ms);
  std::vector<double> at, length, gap_at, gap_length, click_at, delay, processing, presentation, interaction;
  for (const auto& t : s.longtask_spans) at.push_back(t.at), length.push_back(t.duration);
  for (const auto& t : s.frame_longtask_spans) gap_at.push_back(t.at), gap_length.push_back(t.duration);
  for (const auto& c : s.clicks) {
    click_at.push_back(c.at), delay.push_back(c.delay), processing.push_back(c.processing);
    presentation.push_back(c.presentation), interaction.push_back(c.interaction);
  }
  if (s.has_longtasks) {
    out.series("longtask_at_ms", at);
    out.series("longtask_ms", length);
  }
  out.series("frame_longtask_at_ms", gap_at);
  out.series("frame_longtask_ms", gap_length);
  out.series("click_at_ms", click_at);
  out.series("click_delay_ms", delay);
  out.series("click_processing_ms", processing);
  out.series("click_presentation_ms", presentation);
  out.series("click_interaction_ms", interaction);
}

// Runs one page; `check` compares the page's answer with the C++ one (throws on a difference).
template <typename Check>
Repetition page_repetition(PageRequest request, Check check) {
  return [request, check](Counters& out) {
    const BrowserKind& kind = browser::browser_kind(request.browser);
    browser::PageRun run;
    try {
      run = session(kind, "long_task.mjs").run(request);
    } catch (const browser::PageRejected& e) {
      throw CellFailure("rejected", e.what());
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
  r.browser = cell.text("browser");
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
      {.name = "frame_interval_ms", .unit = "ms", .tracked = false, .doc = "the median gap between two frames in the window"},
      {.name = "frame_longtasks", .unit = "count", .tracked = false,
       .doc = "long tasks as the frames show them, in any browser: gaps less half a frame interval of 50 ms or more"},
      {.name = "frame_longtask_max_ms", .unit = "ms", .tracked = false,
       .doc = "the longest of them (gap - half the frame interval)"},
      {.name = "tbt_ms", .unit = "ms",
       .doc = "Total Blocking Time: the sum over long tasks of their time beyond 50 ms, from the best signal the "
              "browser gives (tbt_signal: its longtask entries, else the frame gaps)"},
      {.name = "tbt_frames_ms", .unit = "ms", .tracked = false,
       .doc = "Total Blocking Time over the frame gaps' long tasks, in any browser: the cross-check on tbt_ms"},
      {.name = "tbt_signal", .unit = "index", .tracked = false,
       .doc = "where tbt_ms came from: a row of the tbt_signals table (longtask entries, frame gaps)"},
      {.name = "longtasks", .unit = "count", .tracked = false,
       .doc = "tasks of 50 ms or more (PerformanceObserver longtask; Chromium only: no row where the browser lacks it)"},
      {.name = "longtask_max_ms", .unit = "ms", .doc = "the longest of them"},
      {.name = "input_lag_max_ms", .unit = "ms", .tracked = false,
       .doc = "the longest from the driver's send of a click to its event's timestamp (the driver's way in, not "
              "the page's delay)"},
      {.name = "clicks_backlogged", .unit = "count", .tracked = false,
       .doc = "clicks sent during the work that reached the page after it ended, over click_ms late (a burst "
              "behind each other): when any, the repetition has no INP or input delay rows"},
      {.name = "loafs", .unit = "count", .tracked = false,
       .doc = "long animation frames (long-animation-frame observer; Chromium only: no row where the browser lacks it)"},
      {.name = "loaf_max_ms", .unit = "ms", .doc = "the longest of them"},
      {.name = "loaf_blocking_max_ms", .unit = "ms", .tracked = false,
       .doc = "the largest LoAF blockingDuration: the part of a frame's long tasks beyond 50 ms, which delayed input"},
      {.name = "loaf_blocking_sum_ms", .unit = "ms", .tracked = false, .doc = "the LoAFs' blockingDuration added up"},
      {.name = "inp_ms", .unit = "ms",
       .doc = "INP as web-vitals computes it over the window's clicks: the longest interaction (input to next paint), "
              "one in 50 ignored"},
      {.name = "inp_input_delay_ms", .unit = "ms", .tracked = false, .doc = "INP's click: input to its listener starting"},
      {.name = "inp_processing_ms", .unit = "ms", .tracked = false, .doc = "INP's click: its listener's run"},
      {.name = "inp_presentation_ms", .unit = "ms", .tracked = false, .doc = "INP's click: listener end to the next paint"},
      {.name = "worker_start_ms", .unit = "ms", .tracked = false,
       .doc = "worker strategy only: the job's start to the worker's onmessage (its module's load, the message's way "
              "in, and the main thread's postMessage call)"},
      {.name = "worker_post_message_ms", .unit = "ms", .tracked = false,
       .doc = "worker strategy only: the main thread's postMessage call (the payload's transfer), part of worker_start_ms"},
      {.name = "worker_compute_ms", .unit = "ms", .tracked = false,
       .doc = "worker strategy only: the worker's job, from its onmessage to its postMessage of the answer"},
      {.name = "worker_answer_ms", .unit = "ms", .tracked = false,
       .doc = "worker strategy only: the worker's postMessage to the answer's onmessage on the main thread (the "
              "structured clone and the main thread's queue)"},
      {.name = "worker_settle_ms", .unit = "ms", .tracked = false,
       .doc = "worker strategy only: that onmessage to the job's end (terminate and the promise); the four phases "
              "add up to total_ms"},
      {.name = "chunks", .unit = "count", .tracked = false, .doc = "pieces the work ran in on the main thread"},
      {.name = "chunk_max_ms", .unit = "ms", .tracked = false, .doc = "the longest piece"},
      {.name = "clicks", .unit = "count", .tracked = false, .doc = "clicks in the window (every one sent is checked to be handled)"},
      {.name = "input_delay_max_ms", .unit = "ms",
       .doc = "worst click: from its event's timestamp (the input) to its listener starting (Event Timing)"},
      {.name = "input_delay_p50_ms", .unit = "ms", .tracked = false, .doc = "median click's input delay"},
      {.name = "click_processing_max_ms", .unit = "ms", .tracked = false, .doc = "longest click listener run"},
      {.name = "interaction_max_ms", .unit = "ms", .tracked = false,
       .doc = "longest Event Timing duration of a click, input to next paint (only clicks of 16 ms or more are timed)"},
      {.name = "work_start_ms", .unit = "ms", .tracked = false, .doc = "timeline: when the work started in the window"},
      {.name = "work_end_ms", .unit = "ms", .tracked = false, .doc = "timeline: when its answer was back"},
      {.name = "frame_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each frame ran"},
      {.name = "longtask_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each long task started"},
      {.name = "longtask_ms", .unit = "ms", .tracked = false, .doc = "timeline: each long task's length"},
      {.name = "frame_longtask_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: each frame-gap long task's start"},
      {.name = "frame_longtask_ms", .unit = "ms", .tracked = false, .doc = "timeline: each frame-gap long task's length"},
      {.name = "click_at_ms", .unit = "ms", .tracked = false, .doc = "timeline: when each click happened"},
      {.name = "click_delay_ms", .unit = "ms", .tracked = false, .doc = "timeline: each click's input delay"},
      {.name = "click_processing_ms", .unit = "ms", .tracked = false, .doc = "timeline: each click's processing"},
      {.name = "click_presentation_ms", .unit = "ms", .tracked = false, .doc = "timeline: each click's presentation delay"},
      {.name = "click_interaction_ms", .unit = "ms", .tracked = false,
       .doc = "timeline: each click's duration, input to next paint (the sum of the three)"},
      {.name = "loaf_at_ms", .unit = "ms", .tracked = false, .doc = "LoAFs: when each started"},
      {.name = "loaf_ms", .unit = "ms", .tracked = false, .doc = "LoAFs: each one's duration"},
      {.name = "loaf_blocking_ms", .unit = "ms", .tracked = false, .doc = "LoAFs: each one's blockingDuration"},
      {.name = "loaf_render_start_ms", .unit = "ms", .tracked = false,
       .doc = "LoAFs: renderStart after the frame's start (-1: the frame did not render)"},
      {.name = "loaf_style_layout_start_ms", .unit = "ms", .tracked = false,
       .doc = "LoAFs: styleAndLayoutStart after the frame's start (-1: none)"},
      {.name = "loaf_script_ms", .unit = "ms", .tracked = false, .doc = "LoAFs: the longest script's duration"},
      {.name = "loaf_script_forced_layout_ms", .unit = "ms", .tracked = false,
       .doc = "LoAFs: the longest script's forced style and layout"},
      {.name = "loaf_script_invoker", .unit = "index", .tracked = false,
       .doc = "LoAFs: the longest script's invokerType, a row of the loaf_invokers table (-1: no script)"},
      {.name = "loaf_script_source", .unit = "index", .tracked = false,
       .doc = "LoAFs: the longest script's source file, a row of the page_scripts table (-1: another)"},
      {.name = "loaf_script_char", .unit = "count", .tracked = false,
       .doc = "LoAFs: the longest script's sourceCharPosition in that file (-1: unknown)"},
  };
  metrics.insert(metrics.end(), own.begin(), own.end());
  return metrics;
}

// `strategies`: the default grid; `smoke`: the smoke profile's; the full profile runs every strategy.
// A cell costs a browser start (seconds on a loaded 2-core machine), so the default profile keeps
// the contrast (inline, two ways of chunking, a worker) and leaves the rest to `full` and --set.
std::vector<std::string> browser_names() {
  std::vector<std::string> names;
  for (const auto& kind : browser::browser_kinds()) names.push_back(kind.name);
  return names;
}

// Smoke keeps Chromium alone (a browser start per cell is most of a smoke run's time); the default
// and full grids run every browser, whichever is installed.
Param browser_param() {
  return {.name = "browser", .values = browser_names(), .smoke = {"chromium"}, .full = browser_names(),
          .choices = browser_names(),
          .doc = "chromium (Debian's, over the DevTools protocol) | firefox (Debian's Firefox ESR, over WebDriver "
                 "BiDi); a browser not installed has no cells"};
}

std::vector<Param> page_params(Param size, Param chunk, std::vector<std::string> strategies,
                               std::vector<std::string> smoke) {
  return {
      browser_param(),
      {.name = "strategy", .values = std::move(strategies), .smoke = std::move(smoke), .full = kStrategies,
       .choices = kStrategies,
       .doc = "inline | timeout (setTimeout 0) | message-channel | idle-callback | yield (scheduler.yield) | "
              "post-task (scheduler.postTask) | worker (a Web Worker)"},
      std::move(chunk),
      std::move(size),
      {.name = "click_ms", .values = {"50"}, .range = {{10, 1000}}, .doc = "one click every click_ms during the window"},
  };
}

// A cell is run when its chunk suits its strategy and its browser is installed.
bool runnable(const Cell& cell) {
  return (cell.integer("chunk") > 0) == chunked(cell.text("strategy")) &&
         browser::why_unavailable(browser::browser_kind(cell.text("browser"))).empty();
}

// Missing only when no browser at all is installed.
std::string missing() {
  std::string why;
  for (const auto& kind : browser::browser_kinds()) {
    std::string reason = browser::why_unavailable(kind);
    if (reason.empty()) return "";
    why += (why.empty() ? "" : "; ") + reason;
  }
  return why;
}

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
      .valid = runnable,
      .outcomes = {"rejected"},
      .missing = missing,
      .reserves_address_space = true,
      .shares_process = true,
      .constants = kThresholds,
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
      .valid = runnable,
      .outcomes = {"rejected"},
      .missing = missing,
      .reserves_address_space = true,
      .shares_process = true,
      .constants = kThresholds,
  };
}

// The browsers as the orchestrator, `trace --browser` and the report read them.
Table browsers_table() {
  Table t{.name = "browsers", .doc = "the browsers the family drives (the browser parameter's values), each optional"};
  for (const auto& kind : browser::browser_kinds())
    t.rows.push_back({{"name", kind.name}, {"label", kind.label}, {"env", kind.env}, {"package", kind.package},
                      {"library", kind.library}, {"protocol", kind.protocol}, {"input", kind.input},
                      {"executables", [&] {
                         std::string all;
                         for (const auto& e : kind.executables) all += (all.empty() ? "" : " ") + e;
                         return all;
                       }()},
                      {"path", browser::find_browser(kind)}, {"missing", browser::why_unavailable(kind)}});
  return t;
}

Table names_table(std::string name, std::string doc, const std::vector<std::string>& names) {
  Table t{.name = std::move(name), .doc = std::move(doc)};
  for (const auto& n : names) t.rows.push_back({{"name", n}});
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  bool describing = false;
  for (int i = 1; i < argc; ++i) describing = describing || std::string(argv[i]) == "--stallbench-describe";
  // Asking a browser its version costs a process start: only when describing (meta.json's versions).
  std::vector<std::pair<std::string, std::string>> versions;
  if (describing) {
    for (const auto& kind : browser::browser_kinds()) {
      std::string path = browser::find_browser(kind);
      std::string version = path.empty() ? "not found (its cells are left out)" : browser::browser_version(kind, path);
      // Found but silent is not absent: its cells still run, and each records the version the
      // browser itself reports over the protocol.
      versions.emplace_back(kind.name, !version.empty() ? version : "unknown (" + path + " --version printed no version)");
    }
  }
  auto family = [versions](const Inputs& in) -> Family {
    return {.name = "browser",
            .doc = "the browser's event loop in Chromium and Firefox: a long task against frames and input, by "
                   "scheduling strategy; and a user's own page (stallbench page)",
            .benchmarks = {report_benchmark(), parse_benchmark(),
                           page::benchmark(in, browser_param(), session, missing)},
            .tables = {browsers_table(),
                       names_table("tbt_signals", "where tbt_ms came from, numbered as tbt_signal", kTbtSignals),
                       names_table("loaf_invokers", "a LoAF script's invokerType, numbered as loaf_script_invoker",
                                   browser::loaf_invoker_types()),
                       names_table("page_scripts", "the page files a LoAF script's source can be, numbered as "
                                   "loaf_script_source (pages in workloads/browser/pages/)", kPageScripts)},
            .versions = versions,
            .npm_sets = {"browser"},
            .os_packages = {"browser"}};
  };
  return run_main(argc, argv, FamilyFromInputs{.name = "browser", .inputs = page::kInputs, .make = family});
}
