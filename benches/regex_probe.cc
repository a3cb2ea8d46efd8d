// regex_probe: the short measured probe of `stallbench regex --scan`'s triage. One engine, many
// regexes, each timed on its inputs in the order given (increasing length) in this one process, so
// hundreds of regexes cost one process per engine rather than one per cell. Reads one JSON request
// on stdin and writes one JSON line per event on stdout, flushed as it happens:
//
//   {"engine": "node@26", "nodes": {"26": "/path/to/node"}, "slow_ms": 50, "first": 0,
//    "regexes": [{"regex": "^a+$", "flags": "", "inputs": ["aaa!", ...]}, ...]}
//   -> {"regex": 0, "rejected": "..."}                      the engine refused it
//      {"regex": 0, "input": 1, "start": true}               about to match
//      {"regex": 0, "input": 1, "ms": 0.01, "matched": 1}    one match's time (its fastest of a few)
//      {"regex": 0, "input": 2, "guarded": "..."}            the engine's own limit fired
//      {"regex": 0, "input": 2, "error": "..."}              anything else went wrong
//      {"done": true}
//
// Inputs are bytes as Latin-1 characters, as for regex_check. A regex's remaining inputs are
// skipped once one match takes `slow_ms` (a longer input only takes longer). A match that never
// returns cannot be stopped here: the orchestrator (redos/triage.py) kills the process after the
// last `start` it saw, records it, and starts the probe again from the next regex (`first`).
#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "../workloads/regex/engine.h"
#include "../workloads/regex/engines.h"
#include "regex_check_io.h"

namespace rx = stallbench::regex;
using nlohmann::json;

namespace {

// A fast match is repeated until the repetitions take 0.2 ms, and its time is the fastest of 3
// such rounds; a match slower than 20 ms is run once (rx::Rounds' defaults).
constexpr rx::Rounds kRounds{};

void emit(const json& event) {
  std::puts(event.dump().c_str());
  std::fflush(stdout);
}

// One match's time: the first run (which also warms the engine up), then the fastest of a few
// more (each, when the match is fast, enough runs for the clock). On a busy machine load only ever
// adds time, and one lost time slice in a single round reads as growth. An engine in a program runs
// the rounds there (one request, not one per round: round trips between two processes were most of
// a tree's triage on a loaded machine).
json timed(rx::Regex& regex, const std::string& input) {
  rx::Batch found = regex.fastest(input, kRounds);
  return {{"ms", found.ms}, {"matched", found.matched}};
}

void probe(const std::string& engine, const json& item, std::size_t index, double slow_ms,
           const std::map<std::string, std::string>& nodes) {
  std::unique_ptr<rx::Regex> compiled;
  try {
    compiled = stallbench::regex_check::compile(engine, item.at("regex").get<std::string>(),
                                                item.value("flags", ""), nodes);
  } catch (const rx::EngineFailure& e) {
    return emit({{"regex", index}, {"rejected", e.what()}});
  }
  const auto& inputs = item.at("inputs");
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    emit({{"regex", index}, {"input", k}, {"start", true}});
    std::string input = stallbench::regex_check::latin1_bytes(inputs[k].get<std::string>());
    json event = {{"regex", index}, {"input", k}};
    try {
      event.update(timed(*compiled, input));
    } catch (const rx::EngineFailure& e) {
      event["guarded"] = e.what();
    } catch (const std::exception& e) {  // the engine broke on it: that regex's probe ends here
      event["error"] = e.what();
    }
    emit(event);
    if (!event.contains("ms") || event["ms"].get<double>() >= slow_ms) return;
  }
}

}  // namespace

int main() {
  try {
    json request = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    auto engine = request.at("engine").get<std::string>();
    auto nodes = request.value("nodes", std::map<std::string, std::string>{});
    double slow_ms = request.at("slow_ms").get<double>();
    const auto& regexes = request.at("regexes");
    for (std::size_t i = request.value("first", std::size_t{0}); i < regexes.size(); ++i)
      probe(engine, regexes[i], i, slow_ms, nodes);
    emit({{"done", true}});
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regex_probe: %s\n", e.what());
    return 2;
  }
}
