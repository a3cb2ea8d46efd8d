// regex_probe: the short measured probe of `stallbench regex --scan`'s triage. One engine, many
// regexes, each timed on its inputs in the order given (increasing length) in this one process, so
// hundreds of regexes cost one process per engine rather than one per cell. Reads one JSON request
// on stdin and writes one JSON line per event on stdout, flushed as it happens:
//
//   {"engine": "node@26", "nodes": {"26": "/path/to/node"}, "slow_ms": 50, "skip_ms": 500, "first": 0,
//    "regexes": [{"regex": "^a+$", "flags": "", "inputs": ["aaa!", ...], "aim": [2, ...]}, ...]}
//   -> {"protocol": 3}                                      first, once (regex_probe_hello)
//      {"regex": 0, "rejected": "..."}                      the engine refused it (regex_probe_event)
//      {"regex": 0, "input": 1, "start": true}               about to match
//      {"regex": 0, "input": 1, "ms": 0.01, "matched": 1}    one match's time (its fastest of a few)
//      {"regex": 0, "input": 2, "guarded": "..."}            the engine's own limit fired
//      {"regex": 0, "input": 2, "error": "..."}              anything else went wrong
//      {"done": true}
//
// Inputs are bytes as Latin-1 characters, as for regex_check. A regex's remaining inputs are
// skipped once one match takes `slow_ms` (a longer input only takes longer), or when the next would
// take `skip_ms` growing at the rate of the last two (0 or absent: never). The inputs listed in `aim`
// (indices; absent: none) are measured only when the next input not listed would overshoot: growing
// at the rate of the last two it would take kOvershoot x `slow_ms`. They land a curve's last match
// nearer `slow_ms` (a quadratic's last 2x step otherwise lands anywhere up to 4x past it, and that
// last match was half of a tree's escalation). A match that never
// returns cannot be stopped here: the orchestrator (families/regex/triage.py) kills the process after the
// last `start` it saw, records it, and starts the probe again from the next regex (`first`).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "../workloads/regex/engine.h"
#include "../workloads/regex/engines.h"
#include "regex_check_io.h"

namespace rx = stallbench::regex;
using nlohmann::json;

namespace {

// A fast match is repeated until the repetitions take 0.2 ms, and its time is the fastest of 3
// such rounds; from 5 ms it gets one round more, and from 20 ms none (rx::Rounds' defaults). Run
// once from 5 ms, the escalation took a quarter less time, but beside two spinners per core a first
// run that lost a time slice (std::regex: 5.5 ms where the lengths around it took 0.3 and 0.7) went
// unrepeated, and 8 regexes of the 893-regex tree read polynomial that read linear at idle.
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

using Point = std::optional<std::pair<std::size_t, double>>;  // a finished input's length and time

// The time a match of `next_length` would take growing from `last` at the rate from `before` to
// it, at least in proportion to the length; 0 when there is nothing to grow from.
double predicted_ms(const Point& before, const Point& last, std::size_t next_length) {
  if (!last || last->second <= 0 || last->first == 0) return 0;
  double rate = 1.0;
  if (before && before->second > 0 && last->first > before->first)
    rate = std::max(1.0, std::log(last->second / before->second) /
                             std::log(static_cast<double>(last->first) / before->first));
  return last->second * std::pow(static_cast<double>(next_length) / last->first, rate);
}

// Whether the next input can be skipped: a match took slow_ms, or growing from the last two at
// their rate (at least in proportion to the length) it would take skip_ms. A regex whose curve
// already turned up is escalated anyway, where its next length is measured on the way: in the
// triage, a quadratic at 10 ms on 2 KB took seconds at 32 KB, each one killed as stuck and its
// engine's runtime started again.
bool ends_here(double ms, double slow_ms, double skip_ms, std::size_t length, std::size_t next_length,
               const Point& before) {
  if (ms >= slow_ms) return true;
  if (skip_ms <= 0 || !before || before->second <= 0 || ms <= 0 || length <= before->first) return false;
  return predicted_ms(before, std::make_pair(length, ms), next_length) >= skip_ms;
}

constexpr double kOvershoot = 2.0;

// Whether input k, one of the `aim` inputs, is measured: the next input not among them is predicted
// to take kOvershoot x slow_ms (or there is none).
bool aimed(const std::vector<std::string>& inputs, const std::vector<bool>& aim, std::size_t k, double slow_ms,
           const Point& before, const Point& last) {
  std::size_t next = k + 1;
  while (next < inputs.size() && aim[next]) ++next;
  return next == inputs.size() || predicted_ms(before, last, inputs[next].size()) >= kOvershoot * slow_ms;
}

void probe(const std::string& engine, const json& item, std::size_t index, double slow_ms, double skip_ms,
           const std::map<std::string, std::string>& nodes) {
  std::unique_ptr<rx::Regex> compiled;
  try {
    compiled = stallbench::regex_check::compile(engine, item.at("regex").get<std::string>(),
                                                item.value("flags", ""), nodes);
  } catch (const rx::EngineFailure& e) {
    return emit({{"regex", index}, {"rejected", e.what()}});
  }
  std::vector<std::string> inputs;
  for (const auto& text : item.at("inputs")) inputs.push_back(stallbench::regex_check::latin1_bytes(text.get<std::string>()));
  std::vector<bool> aim(inputs.size(), false);
  for (const auto& k : item.value("aim", json::array())) aim.at(k.get<std::size_t>()) = true;
  Point before, last;  // the last two finished inputs
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (aim[k] && !aimed(inputs, aim, k, slow_ms, before, last)) continue;
    emit({{"regex", index}, {"input", k}, {"start", true}});
    const std::string& input = inputs[k];
    json event = {{"regex", index}, {"input", k}};
    try {
      event.update(timed(*compiled, input));
    } catch (const rx::EngineFailure& e) {
      event["guarded"] = e.what();
    } catch (const std::exception& e) {  // the engine broke on it: that regex's probe ends here
      event["error"] = e.what();
    }
    emit(event);
    if (!event.contains("ms")) return;
    double ms = event["ms"].get<double>();
    std::size_t next = k + 1 < inputs.size() ? inputs[k + 1].size() : 0;
    if (ends_here(ms, slow_ms, skip_ms, input.size(), next, last)) return;
    before = last;
    last = std::make_pair(input.size(), ms);
  }
}

}  // namespace

int main() {
  try {
    json request = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    auto engine = request.at("engine").get<std::string>();
    auto nodes = request.value("nodes", std::map<std::string, std::string>{});
    double slow_ms = request.at("slow_ms").get<double>();
    double skip_ms = request.value("skip_ms", 0.0);
    const auto& regexes = request.at("regexes");
    emit({{"protocol", STALLBENCH_PROTOCOL}});
    for (std::size_t i = request.value("first", std::size_t{0}); i < regexes.size(); ++i)
      probe(engine, regexes[i], i, slow_ms, skip_ms, nodes);
    emit({{"done", true}});
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regex_probe: %s\n", e.what());
    return 2;
  }
}
