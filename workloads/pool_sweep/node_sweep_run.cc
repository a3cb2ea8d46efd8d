#include "node_sweep_run.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "../common/machine.h"
#include "../common/percentile.h"
#include "../common/node_process.h"
#include "../pool/job_classes.h"
#include "../pool/lookup.h"
#include "../pool/pbkdf2_job.h"
#include "../probe/canary_addon_path.h"
#include "calibration.h"
#include "open_loop.h"
#include "pool_model.h"

#ifndef STALLBENCH_POOL_SWEEP_NODE_DIR
#error "STALLBENCH_POOL_SWEEP_NODE_DIR must name workloads/pool_sweep/node (set by CMake)"
#endif

namespace stallbench {
namespace {

// The median of each step over the samples (every sample of a class has the same steps).
std::vector<double> step_medians(const nlohmann::json& samples) {
  std::vector<double> medians;
  for (std::size_t step = 0; step < samples.at(0).size(); ++step) {
    std::vector<double> values;
    for (const auto& sample : samples) values.push_back(sample.at(step));
    medians.push_back(median(values));
  }
  return medians;
}

// What the canaries say of a class's completed jobs (open_loop.js, in the order of latency_ms):
// every job's first wait for a thread, and where that was its whole wait, the split of its latency.
void add_canary_waits(ClassOutcome& outcome, const nlohmann::json& c, bool whole_wait) {
  outcome.pool_wait_ms = c.at("pool_wait_ms").get<std::vector<double>>();
  if (!whole_wait) return;
  // From the arrival, as C++'s wait is: a late submission counts. The rest of the latency is the
  // service, here with the callback's delivery in it (which C++ counts as wait).
  auto first = c.at("first_wait_ms").get<std::vector<double>>();
  if (first.size() != outcome.latency_ms.size()) throw std::runtime_error("Node reported a wait for some jobs only");
  for (std::size_t j = 0; j < first.size(); ++j) {
    double wait = std::clamp(first[j], 0.0, outcome.latency_ms[j]);
    outcome.wait_ms.push_back(wait);
    outcome.service_ms.push_back(outcome.latency_ms[j] - wait);
  }
}

}  // namespace

NodeMixRunner::NodeMixRunner(uv_loop_t* loop, const Mix& mix, int threads, std::string node)
    : loop_(loop), mix_(mix), threads_(threads), node_(std::move(node)), canary_(canary_addon_path()) {
  for (const auto& entry : mix.entries) {
    bool resolver = entry.job_class == "lookup" || entry.job_class == "reverse";
    if (resolver && entry.size > 0)
      throw std::invalid_argument(entry.job_class + ":" + std::to_string(entry.size) + ": Node's dns cannot hold a "
                                  "lookup for a set time; in Node, lookups take no SIZE (the hosts file answers)");
    if (resolver) require_files_before_dns();
    if (entry.job_class == "lookup") require_hosts_file_name("localhost");
    if (entry.job_class == "reverse") reverse_name_ = hosts_file_name_of("127.0.0.1");
    std::size_t bytes = entry.job_class == "read" ? static_cast<std::size_t>(entry.size) : 16;
    files_.push_back(std::make_unique<TempFile>(patterned_bytes(bytes), "stallbench-node-sweep"));
    Pbkdf2Params params;
    params.iterations = static_cast<int>(entry.size);
    pbkdf2_keys_.push_back(entry.job_class == "pbkdf2" ? to_hex(pbkdf2(params)) : "");
  }
}

void NodeMixRunner::check_answer(std::size_t i, const nlohmann::json& answer) const {
  const std::string& name = mix_.entries[i].job_class;
  bool right = true;
  if (name == "pbkdf2") right = answer == pbkdf2_keys_[i];
  else if (name == "read" || name == "stat") right = answer == files_[i]->bytes().size();
  else if (name == "lookup") right = answer.is_string() && is_loopback(answer.get<std::string>());
  else if (name == "reverse") right = answer == reverse_name_;
  if (!right) throw std::runtime_error("Node " + name + " answered " + answer.dump() + ", which is wrong");
}

SweepRun NodeMixRunner::run(double window_s, std::uint64_t seed) {
  SweepRun out;
  out.cores = available_cores();
  const double budget_ms = std::clamp(window_s * 40, 100.0, 400.0);  // as the C++ runner's
  Calibration machine = calibrate(loop_, {}, out.cores, budget_ms);

  OpenLoopConfig config{.window_s = window_s, .seed = seed};
  for (const auto& entry : mix_.entries) config.classes.push_back({nullptr, entry.rate_per_s, entry.in_flight});
  nlohmann::json plan = {{"window_s", window_s}, {"cores", out.cores}, {"calibration_budget_ms", budget_ms},
                         {"canary", canary_.empty() ? nlohmann::json() : nlohmann::json(canary_)},
                         {"classes", nlohmann::json::array()}};
  for (std::size_t i = 0; i < mix_.entries.size(); ++i)
    plan["classes"].push_back({{"name", mix_.entries[i].job_class}, {"size", mix_.entries[i].size},
                               {"in_flight", mix_.entries[i].in_flight}, {"file", files_[i]->path()},
                               {"arrivals_ms", nlohmann::json::array()}});
  for (const Arrival& a : arrival_schedule(config))
    plan["classes"][a.cls]["arrivals_ms"].push_back(static_cast<double>(a.offset_ns) / 1e6);
  TempFile plan_file(plan.dump(), "stallbench-node-sweep-plan");
  auto result = run_node_json(node_, {std::string(STALLBENCH_POOL_SWEEP_NODE_DIR) + "/open_loop.js", plan_file.path()});

  machine.add(calibrate(loop_, {}, out.cores, budget_ms));
  out.effective_cores = machine.effective_cores();
  out.busy_cores_delay_ms = machine.busy_cores_delay_ms();
  out.drain_s = result.at("drain_s");
  out.cpu_util = result.at("cpu_util");
  out.machine_cpu_util = result.at("machine_cpu_util");
  double measured_window = result.at("window_s");
  std::vector<ModelClass> model;
  for (std::size_t i = 0; i < mix_.entries.size(); ++i) {
    const MixEntry& entry = mix_.entries[i];
    const auto& c = result.at("classes").at(i);
    if (!c.at("errors").empty()) throw std::runtime_error("Node " + entry.job_class + ": " + c.at("errors").at(0).get<std::string>());
    check_answer(i, c.at("answer"));
    ClassOutcome outcome;
    outcome.latency_ms = c.at("latency_ms").get<std::vector<double>>();
    outcome.arrived = c.at("arrived");
    outcome.completed_in_window = c.at("completed_in_window");
    outcome.unfinished = c.at("unfinished");
    const JobClassInfo& info = *find_job_class(entry.job_class);
    // Node 26 reads a small file in one trip through the pool (open_loop.js says so): then its first
    // wait is its whole wait too, and the model is given one step.
    const bool whole_wait = info.first_wait_is_whole_wait || c.value("one_trip", false);
    if (!canary_.empty()) add_canary_waits(outcome, c, whole_wait);
    std::vector<double> steps = step_medians(c.at("alone_steps_ms"));
    double alone = median(c.at("alone_latency_ms").get<std::vector<double>>());
    double on_threads = 0;
    for (double s : steps) on_threads += s;
    model.push_back({.name = entry.job_class,
                     .rate_per_s = entry.rate_per_s,
                     .in_flight = entry.in_flight,
                     .step_ms = steps,
                     .overhead_ms = std::max(0.0, alone - on_threads),
                     .slow_io = info.kind == PoolKind::slow_io});
    out.classes.push_back(summarize(entry.job_class, outcome, measured_window));
    out.classes.back().alone_ms = alone;
    out.classes.back().pool_wait_measured = !canary_.empty();
    out.classes.back().split_measured = !canary_.empty() && whole_wait;
  }
  add_predictions(out, model, threads_, window_s);
  return out;
}

}  // namespace stallbench
