// regex_check: answers the orchestrator's correctness questions about regexes, outside any timed
// cell. Reads one JSON request on stdin, writes one JSON answer on stdout:
//
//   {"engines": ["re2", ...], "regexes": ["^a+$", ...], "inputs": ["aa!", ...]}
//   -> {"engines": {"re2": [{"rejected": null, "answers": "0101..."}, ...one per regex], ...}}
//
// `rejected` is the engine's compile error (null when it compiled); `answers` has one character
// per input: 1 match, 0 no match, g the engine's guard fired, e any other failure. Used to refuse
// a catalogue whose regex no engine accepts, and to compare safe rewrites with their originals on
// random inputs. The orchestrator runs it in its own process with a time limit: keep inputs short.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "../workloads/regex/engine.h"

namespace rx = stallbench::regex;
using nlohmann::json;

namespace {

char answer(rx::Regex& regex, const std::string& input) {
  try {
    return regex.matches(input) ? '1' : '0';
  } catch (const rx::EngineFailure&) {
    return 'g';
  } catch (const std::exception&) {
    return 'e';
  }
}

json check(const std::string& engine, const std::string& pattern, const std::vector<std::string>& inputs) {
  std::unique_ptr<rx::Regex> regex;
  try {
    regex = rx::compile(engine, pattern, rx::Anchoring::search);
  } catch (const std::exception& e) {
    return {{"rejected", e.what()}, {"answers", ""}};
  }
  std::string answers;
  for (const auto& input : inputs) answers.push_back(answer(*regex, input));
  return {{"rejected", nullptr}, {"answers", answers}};
}

}  // namespace

int main() {
  try {
    json request = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    auto inputs = request.at("inputs").get<std::vector<std::string>>();
    json out = json::object();
    for (const auto& engine : request.at("engines").get<std::vector<std::string>>()) {
      json per_regex = json::array();
      for (const auto& pattern : request.at("regexes").get<std::vector<std::string>>())
        per_regex.push_back(check(engine, pattern, inputs));
      out[engine] = per_regex;
    }
    std::puts(json{{"engines", out}}.dump().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regex_check: %s\n", e.what());
    return 2;
  }
}
