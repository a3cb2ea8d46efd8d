// Running a scenario on a fresh runtime, once or many times (the player that plays its ops is
// scenario_player.h): a run that fails becomes one line naming the scenario and the op, and each
// run starts at a random point of the millisecond, as separate Node processes do.
#include <algorithm>
#include <random>

#include "busy_wait.h"
#include "scenario.h"
#include "scenario_player.h"

namespace stallbench::loop {
namespace {

// Waits for a random point of the current millisecond (or the next): a run's timers then start
// at a random distance from the clock's next tick, as they do in a fresh process.
void start_at_random_phase(std::mt19937_64& random) {
  std::uniform_int_distribution<std::uint64_t> phase(0, 999'999);
  std::uint64_t target = phase(random);
  std::uint64_t now = uv_hrtime();
  std::uint64_t wait = (target + 1'000'000 - now % 1'000'000) % 1'000'000;
  busy_wait(static_cast<double>(wait) / 1e6);
}

}  // namespace

Order run_scenario(const Scenario& scenario, const ModelSettings& settings, int run) {
  return run_scenario_measured(scenario, settings, run).order;
}

ScenarioRun run_scenario_measured(const Scenario& scenario, const ModelSettings& settings, int run) {
  Order printed;
  Runtime runtime(node_line_model(settings.line));
  const auto& tails = settings.startup_tail_ms;
  const auto& branches = settings.thrown_queues;
  auto turn = static_cast<std::size_t>(run);
  if (!tails.empty()) runtime.set_startup_tail(tails[turn % tails.size()]);
  if (!branches.empty()) {
    // Run by run in turn; after each even turn of the tails the branches shift by one, so that
    // every tail meets every branch.
    std::size_t shift = !tails.empty() && tails.size() % branches.size() == 0 ? turn / tails.size() : 0;
    runtime.set_thrown_queues(branches[(turn + shift) % branches.size()]);
  }
  Player player(runtime, printed, scenario);
  try {
    runtime.run_main(scenario.module, [&] { player.play(scenario.program); }, scenario.file);
  } catch (const std::exception& e) {
    const Op* last = player.last_callback();
    throw ScenarioRunError(scenario.name + ": " +
                           (last ? std::string("in or after the callback of ") + last->where + " (" + op_name(last->kind) + ")"
                                 : std::string("in the main module")) +
                           ": " + e.what());
  }
  return {std::move(printed), runtime.longest_stall_ms()};
}

std::vector<OrderCount> run_scenario_times(const Scenario& scenario, const ModelSettings& settings, int runs,
                                           const std::function<void(int)>& before_run) {
  std::vector<OrderCount> seen;  // in order of first appearance
  std::mt19937_64 random(std::random_device{}());
  for (int i = 0; i < runs; ++i) {
    if (before_run) before_run(i);
    start_at_random_phase(random);
    Order order = run_scenario(scenario, settings, i);
    auto found = std::find_if(seen.begin(), seen.end(), [&](const OrderCount& s) { return s.order == order; });
    if (found == seen.end()) {
      seen.push_back({std::move(order), 1});
    } else {
      ++found->count;
    }
  }
  return seen;
}

}  // namespace stallbench::loop
