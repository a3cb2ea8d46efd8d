// regex_check: answers the orchestrator's correctness questions about regexes, outside any timed
// cell. Reads one JSON request on stdin, writes one JSON answer on stdout:
//
//   {"engines": ["re2", "node@26", ...], "nodes": {"26": "/path/to/node"},
//    "regexes": [{"regex": "^a+$", "flags": "i"}, ...], "inputs": ["aa!", ...]}
//   (a regex may carry its own "inputs", answered instead of the request's: the sample check of a
//   whole catalogue asks one process per engine)
//   -> {"protocol": 3, "engines": {"re2": [{"rejected": null, "answers": "0101...", "fallback": null}, ...one per
//       regex], ...}}  (contract/protocol.schema.json, regex_check_reply)
//
// Inputs are bytes, carried as the Latin-1 characters they are (each code point 0-255 is one
// byte). `rejected` is the engine's compile error (null when it compiled); `answers` has one
// character per input: 1 match, 0 no match, g the engine's guard fired, e any other failure;
// `fallback` why the engine runs the regex with another algorithm than its own (null: it does not). Used
// to refuse a catalogue whose regex no engine accepts, and to compare engines with each other and
// safe rewrites with their originals on sample inputs. The orchestrator runs it in its own process
// with a time limit: keep inputs short.
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

json check(const std::string& engine, const json& regex, const std::map<std::string, std::string>& nodes,
           const std::vector<std::string>& inputs) {
  std::unique_ptr<rx::Regex> compiled;
  try {
    compiled = stallbench::regex_check::compile(engine, regex.at("regex").get<std::string>(), regex.value("flags", ""),
                                                nodes);
  } catch (const stallbench::regex_check::BadRequest&) {
    throw;  // a request naming no Node line: the request is wrong, not the regex
  } catch (const std::exception& e) {
    return {{"rejected", e.what()}, {"answers", ""}, {"fallback", nullptr}};
  }
  std::vector<std::string_view> views(inputs.begin(), inputs.end());
  std::string answers = compiled->answers(views);
  std::string fallback = compiled->fallback();
  return {{"rejected", nullptr}, {"answers", answers}, {"fallback", fallback.empty() ? json(nullptr) : json(fallback)}};
}

}  // namespace

int main() {
  try {
    json request = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    auto bytes = [](const json& texts) {
      std::vector<std::string> out;
      for (const auto& text : texts) out.push_back(stallbench::regex_check::latin1_bytes(text.get<std::string>()));
      return out;
    };
    std::vector<std::string> inputs = bytes(request.at("inputs"));
    auto nodes = request.value("nodes", std::map<std::string, std::string>{});
    json out = json::object();
    for (const auto& engine : request.at("engines").get<std::vector<std::string>>()) {
      json per_regex = json::array();
      for (const auto& regex : request.at("regexes"))
        per_regex.push_back(check(engine, regex, nodes, regex.contains("inputs") ? bytes(regex["inputs"]) : inputs));
      out[engine] = per_regex;
    }
    std::puts(json{{"protocol", STALLBENCH_PROTOCOL}, {"engines", out}}.dump().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regex_check: %s\n", e.what());
    return 2;
  }
}
